package weft
package internal.flow

import scala.concurrent.duration.FiniteDuration
import scala.util.control.NonFatal
import java.util.concurrent.CancellationException
import weft.internal.runtime.DurationText

/** Argument checks of the flow operators, and the kinds of failure a stage may handle. */
private[weft] object FlowChecks:

  /** Checks `value >= 0`, naming the operator and the parameter. */
  def nonNegative(op: String, param: String, value: Long): Unit =
    if value < 0 then throw IllegalArgumentException(s"$op: $param must be >= 0, was $value")

  /** Checks `value >= 1`, naming the operator and the parameter. */
  def positive(op: String, param: String, value: Long): Unit =
    if value < 1 then throw IllegalArgumentException(s"$op: $param must be >= 1, was $value")

  /** Checks that a duration is at least zero (or, with `strict`, above zero). */
  def duration(op: String, param: String, d: FiniteDuration, strict: Boolean = false): Unit =
    if d == null then throw IllegalArgumentException(s"$op: $param must not be null")
    if d.length < 0 || (strict && d.length == 0) then
      val bound = if strict then "> 0" else ">= 0"
      throw IllegalArgumentException(s"$op: $param must be $bound, was ${DurationText(d)}")

  /** Checks that no element of `values` is null. */
  def noNull(op: String, param: String, values: Seq[AnyRef | Null]): Unit =
    if values == null then throw IllegalArgumentException(s"$op: $param must not be null")
    if values.exists(_ == null) then
      throw IllegalArgumentException(s"$op: $param must not contain null")

  /** Checks that a reference argument is given. */
  def notNull(op: String, param: String, value: AnyRef | Null): Unit =
    if value == null then throw IllegalArgumentException(s"$op: $param must not be null")

  /**
   * Whether `e` is a failure a stage may handle (`recover`, `retry`, `onError`): not fatal, not a
   * cancellation (the scope is going away, nothing may replace it) and not another stage's
   * [[FlowStop]] (a `ControlThrowable`, which `NonFatal` already rejects).
   */
  def handleable(e: Throwable): Boolean =
    NonFatal(e) && !e.isInstanceOf[CancellationException] && !e.isInstanceOf[InterruptedException]
