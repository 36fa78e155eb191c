package weft.testkit

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.locks.ReentrantLock
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import weft.*
import weft.channels.*
import weft.testing.Deadlined

/**
 * Scopes that can never go on fail with a report instead of hanging: a [[DeadlockException]]
 * when every fiber waits on weft with nothing pending, a [[BlockedFiberException]] when a fiber
 * blocks in the JDK. Each report names every fiber (by the name it had inside) and what it
 * waits on.
 */
class DeadlockReportSuite extends Deadlined:

  /** The names the fibers of a test had, by role, captured inside them. */
  private final class Names:
    private val byRole = ConcurrentHashMap[String, String]()

    /** Records the calling fiber's name as `role`. */
    def mark(role: String): Unit = byRole.put(role, Thread.currentThread().getName): Unit

    /** The name recorded for `role`. */
    def apply(role: String): String = byRole.get(role)

    def roles: Set[String] = byRole.keySet.asScala.toSet

  /** Runs `body`, expects a deadlock, and prints the report and how long (real time) it took. */
  private def deadlock(body: (VirtualClock, Async) ?=> Unit): DeadlockException =
    val start = System.nanoTime()
    val e = intercept[DeadlockException](VirtualTime.run(body))
    val ms = (System.nanoTime() - start) / 1_000_000.0
    println(f"deadlock reported after $ms%.1f ms of wall time:\n${e.getMessage}")
    e

  /** The fiber of the report that had the name `name`. */
  private def fiber(e: VirtualTimeException, name: String): WaitingFiber =
    e.fibers.find(_.name == name) match
      case Some(f) => f
      case None    => fail(s"no fiber named $name in the report:\n${e.getMessage}")

  private def assertWaits(e: VirtualTimeException, name: String, what: String): Unit =
    val f = fiber(e, name)
    assertEquals(f.waitsOn, what, s"what $name waits on")
    assert(!f.blockedInJdk, f.toString)
    assert(f.stack.nonEmpty, s"no stack for $name")
    assert(e.getMessage.contains(name), s"the message does not name $name:\n${e.getMessage}")

  test("two fibers each reading the other's channel, after 5 virtual seconds"):
    val names = Names()
    val e = deadlock:
      names.mark("main")
      val a = SyncChannel[Int]()
      val b = SyncChannel[Int]()
      sleep(5.seconds)
      val f1 = Future { names.mark("f1"); a.read(); b.send(1) }
      val f2 = Future { names.mark("f2"); b.read(); a.send(2) }
      f1.await
      f2.await
    assertEquals(e.at, 5.seconds)
    assert(e.getMessage.contains("deadlock at virtual time 5 s"), e.getMessage)
    assertEquals(e.fibers.size, 3)
    assertWaits(e, names("f1"), "a channel read")
    assertWaits(e, names("f2"), "a channel read")
    assertWaits(e, names("main"), "a future (await)")
    assertEquals(names("main"), "weft-test-main")

  test("a send nobody reads"):
    val names = Names()
    val e = deadlock:
      names.mark("main")
      val ch = SyncChannel[String]()
      sleep(1.minute)
      ch.send("nobody")
    assertEquals(e.at, 1.minute)
    assertEquals(e.fibers.size, 1)
    assertWaits(e, names("main"), "a channel send")

  test("a semaphore acquired twice by one fiber, in a future"):
    val names = Names()
    val e = deadlock:
      names.mark("main")
      val s = Semaphore(1)
      Future:
        names.mark("twice")
        s.acquire()
        s.acquire()
      .await
    assertEquals(e.at, Duration.Zero)
    assertWaits(e, names("twice"), "a semaphore permit")
    assertWaits(e, names("main"), "a future (await)")

  test("a future awaited that never completes"):
    val names = Names()
    val e = deadlock:
      names.mark("main")
      val never = Promise[Int]()
      sleep(250.millis)
      never.future.await
    assertEquals(e.at, 250.millis)
    assertWaits(e, names("main"), "a future (await)")

  test("an Async.group waiting on a stuck child"):
    val names = Names()
    val e = deadlock:
      names.mark("main")
      Async.group:
        val ch = UnboundedChannel[Int]()
        val child = Future { names.mark("child"); ch.read() }
        sleep(2.seconds)
        child.await // the child waits for a value nobody sends
    assertEquals(e.at, 2.seconds)
    assertEquals(e.fibers.size, 2)
    assertWaits(e, names("child"), "a channel read")
    assertWaits(e, names("main"), "a future (await)")

  test("a wake from outside the scope within the grace is not a deadlock"):
    val outside = Promise[Int]()
    val helper = Thread.ofPlatform().start: () =>
      Thread.sleep(50)
      outside.success(42)
    val v = VirtualTime(VirtualTimeConfig(deadlockGrace = 5.seconds)).run:
      sleep(3.seconds)
      val got = outside.future.await // every fiber waits, no timer: only the grace keeps it
      (got, currentTime)
    helper.join()
    assertEquals(v, (42, 3.seconds))

  test("a fiber in Thread.sleep: BlockedFiberException naming it and the call"):
    val names = Names()
    val limit = 200.millis
    val start = System.nanoTime()
    val e = intercept[BlockedFiberException]:
      VirtualTime(VirtualTimeConfig(blockedLimit = limit)).run:
        Future { names.mark("sleeper"); Thread.sleep(600_000) }.await
    val ms = (System.nanoTime() - start) / 1_000_000.0
    println(f"blocked fiber reported after $ms%.1f ms of wall time:\n${e.getMessage}")
    val f = fiber(e, names("sleeper"))
    assert(f.blockedInJdk, f.toString)
    assert(f.waitsOn.contains("java.lang.Thread.sleep"), f.waitsOn)
    assert(f.waitsOn.contains("DeadlockReportSuite"), f.waitsOn)
    assertEquals(e.fibers.size, 1)
    assert(e.getMessage.contains("200 ms"), e.getMessage)

  test("a ReentrantLock held by another fiber: BlockedFiberException naming the waiter"):
    val names = Names()
    val e = intercept[BlockedFiberException]:
      VirtualTime(VirtualTimeConfig(blockedLimit = 200.millis)).run:
        val lock = ReentrantLock()
        val locked = Promise[Unit]()
        val holder = Future:
          names.mark("holder")
          lock.lock()
          try
            locked.success(())
            Promise[Unit]().future.await // holds the lock until cancelled
          finally lock.unlock()
        locked.future.await
        val waiter = Future { names.mark("waiter"); lock.lock(); lock.unlock() }
        waiter.await
        holder.await
    println(e.getMessage)
    val w = fiber(e, names("waiter"))
    assert(w.blockedInJdk, w.toString)
    assert(w.waitsOn.contains("java.util.concurrent.locks.ReentrantLock.lock"), w.waitsOn)
    assertEquals(e.fibers.map(_.name), List(w.name)) // the holder waits on weft: not blocked

  test("a second wake from outside, after the first one's fiber waits again, is not a deadlock"):
    // The first completion ends one grace; the body then waits for the second: the grace must
    // start again, not report a deadlock because every fiber waits once more.
    val first = Promise[Int]()
    val second = Promise[Int]()
    val helper = Thread.ofPlatform().start: () =>
      Thread.sleep(50)
      first.success(1)
      Thread.sleep(50)
      second.success(2)
    val v = VirtualTime(VirtualTimeConfig(deadlockGrace = 5.seconds)).run:
      first.future.await + second.future.await
    helper.join()
    assertEquals(v, 3)

  test("a scope that fails twice reports its first failure, the body's own one suppressed in it"):
    // deadlock first; the body swallows the interrupt and blocks in the JDK, which the kit then
    // reports too: the user sees the deadlock, and what the body threw at the end is kept
    val e = intercept[VirtualTimeException]:
      VirtualTime(VirtualTimeConfig(blockedLimit = 200.millis)).run:
        val never = Promise[Unit]()
        try never.future.await
        catch case _: InterruptedException => Thread.sleep(60_000)
    assert(e.isInstanceOf[DeadlockException], e.toString)
    assert(
      e.getSuppressed.exists(_.isInstanceOf[InterruptedException]),
      s"the body's own failure is lost: ${e.getSuppressed.toList}"
    )

  test("a deadlock keeps the body's own failure, suppressed in the report"):
    val e = deadlock:
      Promise[Unit]().future.await
    assert(
      e.getSuppressed.exists(_.isInstanceOf[InterruptedException]),
      s"the body's own failure is lost: ${e.getSuppressed.toList}"
    )
