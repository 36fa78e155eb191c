package weft
package internal.runtime

import weft.runtime.*

import java.lang.invoke.MethodHandle
import scala.util.control.NonFatal

/**
 * Asks Linux for a small timer slack on weft's timer thread, so that timers ring close to
 * their deadline.
 *
 * ==Why==
 * Linux lets a thread's timed wait end up to its ''timer slack'' late, to group wake-ups (50 µs
 * by default for ordinary threads). weft's one timer thread parks until the next deadline and
 * then wakes the sleeping fiber, which a carrier thread must pick up: two wake-ups per timer
 * where a platform thread's `Thread.sleep` has one, so with the default slack a `weft.sleep`
 * overshot its deadline by more than a platform thread's sleep did; with a small slack it
 * overshoots by less. The sequentially-io benchmark (twenty short sleeps in a row per key)
 * re-checks it, figures in docs/perf/time.md; `TimerSlackSuite` checks that only the timer
 * thread's slack changes. Only how late a timer may ring changes: it still never rings early,
 * and no thread spins.
 *
 * ==How==
 * `prctl(PR_SET_TIMERSLACK, nanos)` on the timer thread, called through the Foreign Function
 * and Memory API. That is a restricted method, so it is done only where it can be done without
 * a warning: on Linux, on JDK 22 or newer (the API is final there), and when native access is
 * enabled for weft's module (for weft on the class path: `--enable-native-access=ALL-UNNAMED`).
 * Otherwise the timer thread keeps the system's slack and nothing else changes. The API is
 * reached by reflection so that the library still loads and runs on JDK 21.
 *
 * ==Configuration==
 * The system property `weft.timer.slackNanos`: a positive number of nanoseconds (default
 * [[DefaultNanos]]), or `off` to leave the system's slack alone.
 */
private[weft] object TimerSlack:

  /** The system property that sets the timer thread's slack (nanoseconds, or `off`). */
  val PropertyName = "weft.timer.slackNanos"

  /** The slack asked for when the property is not set: 1 µs. */
  val DefaultNanos = 1000L

  private val PrSetTimerSlack = 29 // <linux/prctl.h>
  private val PrGetTimerSlack = 30

  /**
   * The slack a property value asks for: `None` for `off`, else a positive number of
   * nanoseconds.
   * @throws IllegalArgumentException
   *   if the value is neither `off` nor a positive whole number
   */
  def parse(value: String): Option[Long] =
    val v = value.trim
    if v.equalsIgnoreCase("off") then None
    else
      val nanos = v.toLongOption.filter(_ > 0)
      if nanos.isEmpty then
        throw IllegalArgumentException(
          s"$PropertyName must be a positive number of nanoseconds or off, got '$value'"
        )
      nanos

  /** The slack configured by the system property, read (and checked) once. */
  lazy val configured: Option[Long] =
    Option(System.getProperty(PropertyName)).fold(Some(DefaultNanos))(parse)

  /**
   * Whether `prctl` may be called here: Linux, JDK 22+ and native access enabled for weft's
   * module (a separate function so that the rule can be tested on its own).
   */
  def usable(osName: String, jdkFeature: Int, nativeAccess: => Boolean): Boolean =
    osName.toLowerCase.startsWith("linux") && jdkFeature >= 22 && nativeAccess

  /** Whether `prctl` may be called in this JVM (see [[usable]]). */
  lazy val usableHere: Boolean =
    usable(System.getProperty("os.name", ""), Runtime.version().feature(), nativeAccessEnabled)

  /** `prctl` as a method handle `(int, long, long, long, long) int`, if usable here. */
  private lazy val prctl: Option[MethodHandle] =
    if !usableHere then None
    else
      try Some(linkPrctl())
      catch case NonFatal(_) | _: LinkageError => None

  /**
   * Sets the calling thread's slack to [[configured]] if it can; returns whether it did. Never
   * throws (short of a virtual-machine error): the timer thread calls it before its first task.
   */
  def applyToCurrentThread(): Boolean = configured match
    case Some(nanos) =>
      try prctl.exists(call(_, PrSetTimerSlack, nanos) == 0)
      catch case NonFatal(_) | _: LinkageError => false
    case None => false

  /** The calling thread's timer slack in nanoseconds, where `prctl` is usable. */
  def currentThreadSlack: Option[Long] = prctl.map(call(_, PrGetTimerSlack, 0L).toLong)

  private def call(prctl: MethodHandle, option: Int, arg: Long): Int =
    val zero = java.lang.Long.valueOf(0L)
    val result = prctl.invokeWithArguments(
      Integer.valueOf(option),
      java.lang.Long.valueOf(arg),
      zero,
      zero,
      zero
    )
    result.asInstanceOf[Integer].intValue

  private def nativeAccessEnabled: Boolean =
    try
      val m = classOf[Module].getMethod("isNativeAccessEnabled")
      m.invoke(getClass.getModule).asInstanceOf[Boolean]
    catch case _: ReflectiveOperationException => false

  /**
   * Links `int prctl(int, long, long, long, long)` from the C library (prctl's options are
   * unsigned longs, the same width as Java's `long` on 64-bit Linux).
   */
  private def linkPrctl(): MethodHandle =
    def cls(name: String) = Class.forName(name)
    val linkerC = cls("java.lang.foreign.Linker")
    val symbolLookupC = cls("java.lang.foreign.SymbolLookup")
    val segmentC = cls("java.lang.foreign.MemorySegment")
    val descriptorC = cls("java.lang.foreign.FunctionDescriptor")
    val layoutC = cls("java.lang.foreign.MemoryLayout")
    val valueLayoutC = cls("java.lang.foreign.ValueLayout")
    val optionArrayC = cls("[Ljava.lang.foreign.Linker$Option;")
    val linker = linkerC.getMethod("nativeLinker").invoke(null)
    val libc = linkerC.getMethod("defaultLookup").invoke(linker)
    val found = symbolLookupC.getMethod("find", classOf[String]).invoke(libc, "prctl")
    val symbol = found.asInstanceOf[java.util.Optional[AnyRef]].orElseThrow()
    val jInt = valueLayoutC.getField("JAVA_INT").get(null)
    val jLong = valueLayoutC.getField("JAVA_LONG").get(null)
    val args = java.lang.reflect.Array.newInstance(layoutC, 5)
    java.lang.reflect.Array.set(args, 0, jInt)
    for i <- 1 to 4 do java.lang.reflect.Array.set(args, i, jLong)
    val descriptor = descriptorC.getMethod("of", layoutC, args.getClass).invoke(null, jInt, args)
    val noOptions = java.lang.reflect.Array.newInstance(optionArrayC.getComponentType, 0)
    linkerC
      .getMethod("downcallHandle", segmentC, descriptorC, optionArrayC)
      .invoke(linker, symbol, descriptor, noOptions)
      .asInstanceOf[MethodHandle]
