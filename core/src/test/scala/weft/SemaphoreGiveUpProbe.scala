package weft

import weft.*

/**
 * A measurement, not a test: what waiters giving up on a held semaphore cost. Run with
 * `core/Test/runMain weft.SemaphoreGiveUpProbe`; it uses the public API only, so the same
 * probe runs against any version. Everything runs inside one `Async.blocking` entered on a
 * virtual thread. Prints:
 *   - the cancel-and-join of 40,000 fibers awaiting `acquiring` (each drops its listener), and of
 *     40,000 fibers blocked in `acquire()`;
 *   - the time per `select(acquiring, onTimeout(0))` on a held semaphore, per batch of 10,000,
 *     up to 100,000 timeouts;
 *   - the one release that follows those 100,000 give-ups.
 * Figures belong in docs/perf, with the machine's conditions.
 */
object SemaphoreGiveUpProbe:

  private def ms(nanos: Long): String = f"${nanos / 1e6}%.1f ms"

  private def cancelled(n: Int, viaSource: Boolean)(using Async): Long =
    val s = Semaphore(1)
    val g = s.acquire()
    var t0 = 0L
    Async.group:
      (1 to n).foreach: _ =>
        Future(if viaSource then Async.await(s.acquiring).close() else s.acquire().close())
      while s.waiting < n do Thread.sleep(1)
      t0 = System.nanoTime()
    val took = System.nanoTime() - t0
    g.close()
    assert(s.available == 1 && s.waiting == 0, s"permits lost: $s")
    took

  private def selectLoop()(using Async): Unit =
    val s = Semaphore(1)
    val g = s.acquire()
    for batch <- 1 to 10 do
      val t0 = System.nanoTime()
      for _ <- 1 to 10_000 do Async.select(s.acquiring ~~> (_.close()), onTimeout(0)(())): Unit
      val per = (System.nanoTime() - t0) / 10_000 / 1e3
      println(
        f"  select/onTimeout(0), batch $batch%2d (after ${(batch - 1) * 10}%3dk): $per%.1f µs each"
      )
    val t0 = System.nanoTime()
    g.close()
    println(s"  one release after 100,000 give-ups: ${ms(System.nanoTime() - t0)}")
    assert(s.available == 1 && s.waiting == 0, s"permits lost: $s")

  def main(args: Array[String]): Unit =
    val rounds = args.headOption.map(_.toInt).getOrElse(3)
    val vt = Thread.ofVirtual().start: () =>
      Async.blocking:
        for r <- 1 to rounds do
          println(s"round $r")
          println(
            s"  40,000 fibers awaiting `acquiring`, cancelled: ${ms(cancelled(40_000, true))}"
          )
          println(s"  40,000 fibers in `acquire()`, cancelled: ${ms(cancelled(40_000, false))}")
          selectLoop()
    vt.join()
