package weft.flow

import scala.concurrent.duration.FiniteDuration
import weft.{Async, Retry, withTimeout}
import weft.channels.Channel
import weft.internal.flow.{DownstreamWatch, FlowChecks, FlowStop}

/**
 * The operators of a [[Flow]] that act on how a run ends: callbacks, recovery, retries, a time
 * limit, a side channel. All are fused (no fiber of their own, except what `timeout` and
 * `retry` need for their nested scopes).
 *
 * "Upstream" below means this flow's own stages; a failure thrown by a stage downstream
 * unwinds through them too, and `recover` and `retry` tell the two apart: they only ever act on
 * the failures of their upstream, and never on a cancellation.
 */
trait FlowLifecycleOps[+T]:
  this: Flow[T] =>

  /**
   * The elements unchanged, each also sent to `sink` first (waiting while `sink` is full: it
   * back-pressures the flow). `sink` is closed when the run ends normally or is stopped early by
   * a stage downstream, and closed with `error(cause)` when the run fails.
   */
  def alsoTo[U >: T](sink: Channel[U]): Flow[U] =
    FlowChecks.notNull("alsoTo", "sink", sink)
    Flow.of: (emit, a) =>
      try
        stage(
          { t =>
            sink.send(t)(using a); emit(t)
          },
          a
        )
        sink.close()
      catch
        case s: FlowStop =>
          sink.close()
          throw s
        case e: Throwable =>
          sink.error(e)
          throw e

  /**
   * Runs `f` when the run of this flow ends, however it ends: normally, stopped early by a stage
   * downstream, failed, or cancelled (a `finally`). A failure of `f` is thrown in place of a
   * normal end, and attached as suppressed to a failure.
   */
  def onComplete(f: => Unit): Flow[T] = Flow.of: (emit, a) =>
    var failed: Throwable | Null = null
    try stage(emit, a)
    catch
      case e: Throwable =>
        failed = e
        throw e
    finally
      try f
      catch
        case g: Throwable if failed != null && !failed.isInstanceOf[FlowStop] =>
          if g ne failed then failed.nn.addSuppressed(g)

  /** Runs `f` when the run of this flow ends normally (or stopped early by a stage downstream). */
  def onDone(f: => Unit): Flow[T] = Flow.of: (emit, a) =>
    try stage(emit, a)
    catch
      case s: FlowStop =>
        f
        throw s
    f

  /**
   * Runs `f` with the failure when the run of this flow fails (upstream or downstream; not on a
   * cancellation), then lets the failure go on. A failure of `f` is attached to it as suppressed.
   */
  def onError(f: Throwable => Unit): Flow[T] =
    FlowChecks.notNull("onError", "f", f)
    Flow.of: (emit, a) =>
      try stage(emit, a)
      catch
        case e: Throwable if FlowChecks.handleable(e) =>
          try f(e)
          catch case g: Throwable => if g ne e then e.addSuppressed(g)
          throw e

  /**
   * On a failure of its upstream that `pf` is defined at, emits `pf(failure)` as the last
   * element and ends normally. A failure of a stage downstream, a cancellation, or one `pf` is
   * not defined at, goes on unchanged.
   */
  def recover[U >: T](pf: PartialFunction[Throwable, U]): Flow[U] =
    FlowChecks.notNull("recover", "pf", pf)
    Flow.of: (emit, a) =>
      val watch = DownstreamWatch(emit)
      try stage(watch, a)
      catch
        case e: Throwable
            if watch.fromUpstream(e) && FlowChecks.handleable(e) && pf.isDefinedAt(e) =>
          emit(pf(e))

  /**
   * Runs this flow again from its start, under `policy` ([[weft.retry]]'s rules: its pauses,
   * its count, its `retryOn`), each time its upstream fails; a failure of a stage downstream is
   * never retried. The elements emitted before a failure have gone downstream already: a retried
   * run emits them again, so it suits sources that resume (or stages that tolerate repeats).
   */
  def retry(policy: Retry): Flow[T] =
    FlowChecks.notNull("retry", "policy", policy)
    Flow.of: (emit, a) =>
      val watch = DownstreamWatch(emit)
      val upstreamOnly = policy.copy(retryOn = e => watch.fromUpstream(e) && policy.retryOn(e))
      weft.retry(upstreamOnly)(stage(watch, summon[Async]))(using a)

  /**
   * Fails the run with a `java.util.concurrent.TimeoutException` if it has not ended within
   * `timeout` (the stages downstream, which run inside it, count too). See [[weft.withTimeout]].
   * @throws IllegalArgumentException
   *   if `timeout` is negative
   */
  def timeout(timeout: FiniteDuration): Flow[T] =
    FlowChecks.duration("timeout", "timeout", timeout)
    Flow.of((emit, a) => withTimeout(timeout)(stage(emit, summon[Async]))(using a))
