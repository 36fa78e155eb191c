package weft.slf4j

import org.slf4j.MDC
import weft.Async
import weft.runtime.{AsyncSupport, Clock, Fiber, Scheduler}
import weft.internal.async.ForkHook

/**
 * The MDC bridge: slf4j's mapped diagnostic context (MDC) carried into futures, so that a
 * request id put in the MDC of a fiber is in the MDC of the futures it starts, and in their log
 * lines.
 *
 * Most MDC implementations (logback's among them) keep the context in a plain thread-local,
 * which a new thread does not inherit. Inside [[propagating]], every future starts with a copy of
 * the MDC that the fiber starting it had at that moment, and clears its MDC when it ends; the
 * futures it starts inherit the same way, down the tree.
 *
 * {{{
 * Async.blocking:
 *   Mdc.where("requestId" -> "r-42"):
 *     Future(log.info("handling")) // logged with requestId=r-42
 * }}}
 */
object Mdc:

  /**
   * Runs `body` so that every future started in it, and every future those start, begins with a
   * copy of the MDC of the fiber that started it.
   */
  def propagating[T](body: Async ?=> T)(using async: Async): T =
    async.support match
      case _: MdcSupport => body
      case other         => body(using ForkHook.withSupport(async, MdcSupport(other)))

  /**
   * Puts `entries` in the MDC of the calling fiber for `body` (then restores what was there
   * before, also when `body` throws), and runs `body` [[propagating]] the MDC into its futures.
   * @throws IllegalArgumentException
   *   if a key is `null`
   */
  def where[T](entries: (String, String)*)(body: Async ?=> T)(using Async): T =
    entries.foreach((k, _) => require(k != null, "Mdc.where: a key must not be null"))
    val previous = entries.map((k, _) => k -> MDC.get(k))
    entries.foreach((k, v) => MDC.put(k, v))
    try propagating(body)
    finally
      previous.reverse.foreach: (k, v) =>
        if v == null then MDC.remove(k) else MDC.put(k, v)

/**
 * Starts fibers with `underlying`, each running its body with a copy of the MDC its starter had
 * when it started it (the copy is taken on the starting fiber, where `start` runs).
 */
private final class MdcSupport(underlying: AsyncSupport) extends AsyncSupport:

  def start(body: Runnable): Fiber =
    val context = MDC.getCopyOfContextMap
    underlying.start: () =>
      if context == null then MDC.clear() else MDC.setContextMap(context)
      try body.run()
      finally MDC.clear()

  def scheduler: Scheduler = underlying.scheduler

  def clock: Clock = underlying.clock
