package weft.testkit

import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import java.util.concurrent.locks.LockSupport
import weft.runtime.{AsyncSupport, Clock, Fiber, FiberDomain, Scheduler}

/**
 * The fibers of one virtual-time scope: each started on a virtual thread of the default support,
 * named `weft-test-N` for reports, and counted by [[FiberDomain]] so that the [[Driver]] (parked
 * on `driver`) is woken when the last runnable one waits.
 */
private[testkit] final class VirtualDomain(
    val scheduler: VirtualScheduler,
    driver: Thread,
    config: VirtualTimeConfig
) extends FiberDomain:

  private val runnable = AtomicInteger(0)
  private val wakes = AtomicLong(0)
  private val names = AtomicInteger(0)
  private val outside = AtomicInteger(0)

  /** The number of members waiting outside, counted as waiting. */
  def outsideCount: Int = outside.get

  override protected def outsideWaitsHoldTime: Boolean = config.outsideWaitsHoldTime

  override protected def onOutside(delta: Int): Unit = outside.addAndGet(delta): Unit

  /** The number of members that can run now. */
  def runnableCount: Int = runnable.get

  /** How many times a member was counted runnable: it changes whenever anything progresses. */
  def progress: Long = wakes.get

  protected def onRunnable(): Unit =
    wakes.incrementAndGet()
    runnable.incrementAndGet(): Unit

  protected def onWaiting(): Unit =
    if runnable.decrementAndGet() == 0 then LockSupport.unpark(driver)

  val support: AsyncSupport = new AsyncSupport:
    def start(body: Runnable): Fiber = startNamed(s"weft-test-${names.incrementAndGet()}", body)
    def scheduler: Scheduler = VirtualDomain.this.scheduler
    def clock: Clock = VirtualDomain.this.scheduler

  /** Starts `body` as a member named `name`. */
  def startNamed(name: String, body: Runnable): Fiber =
    start(
      AsyncSupport.default,
      () =>
        Thread.currentThread().setName(name)
        body.run()
    )
