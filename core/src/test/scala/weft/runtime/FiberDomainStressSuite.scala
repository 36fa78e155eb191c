package weft.runtime

import java.util.SplittableRandom
import java.util.concurrent.{CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.locks.LockSupport
import scala.jdk.CollectionConverters.*
import weft.testing.{Deadlined, Stress}

/**
 * [[FiberDomain]]'s member state machine under concurrent park, unpark, interrupt and spurious
 * wakes, on real (virtual) threads: members pass tokens to each other, as weft's waits hand
 * values over, while a foreign thread adds wakes the domain cannot see.
 *
 * Two invariants are checked:
 *   - at quiescence (every member parked in its weft park, every token taken, no wake in
 *     flight) the count reads zero, and never fell below zero;
 *   - whenever the count reads zero, every member has taken every token whose wake had returned
 *     before: the count never reads zero while a woken member has yet to run (the virtual clock
 *     could move under it).
 * Rounds: `WEFT_FIBERDOMAIN_ROUNDS` (default a short sample; `./sbtw stress` runs more).
 */
class FiberDomainStressSuite extends Deadlined:

  override def testDeadlineSeconds: Int = 600

  // munit's own limit would report a long run as timed out and hide its failure.
  override val munitTimeout = scala.concurrent.duration.Duration(660, "s")

  private val members = 12

  private val rounds: Int = sys.env
    .get("WEFT_FIBERDOMAIN_ROUNDS").map(_.toInt)
    .getOrElse(Stress.size(full = 2000, sample = 150))

  /** Runs `body` with a counting domain of `n` started members looping on `loop`. */
  private def withMembers(n: Int)(loop: (CountingDomain, Int, AtomicBoolean) => Unit)(
      body: (CountingDomain, AtomicBoolean) => Unit
  ): Unit =
    val d = CountingDomain(n)
    val stop = AtomicBoolean(false)
    val started = CountDownLatch(n)
    d.open()
    try
      for i <- 0 until n do
        d.start(
          AsyncSupport.default,
          () =>
            d.threads(i) = Thread.currentThread()
            started.countDown()
            loop(d, i, stop)
        ): Unit
      assert(started.await(30, TimeUnit.SECONDS), "the members did not start")
      body(d, stop)
    finally
      stop.set(true)
      for i <- 0 until n do
        val t = d.threads(i)
        if t != null then
          LockSupport.unpark(t)
          t.join(30_000)
          assert(!t.isAlive, s"member $i did not end")
      d.close()
    assertEquals(d.count.get, 0, "members that ended are still counted")

  /** Waits until the domain is quiescent, failing with `what` after 30 s. */
  private def awaitQuiescent(d: CountingDomain, what: => String): Unit =
    val end = System.nanoTime() + 30_000_000_000L
    while !d.quiescent do
      if System.nanoTime() - end > 0 then
        fail(s"not quiescent after 30 s ($what): count ${d.count.get}")
      Thread.sleep(0, 100_000)

  /**
   * The count once the domain is quiescent and stays so: a spurious wake still in the air may
   * move a parked member through `Running` for an instant, so a non-zero reading is re-read for
   * up to 200 ms before it stands.
   */
  private def settledCount(d: CountingDomain, what: => String): Int =
    var settled = false
    var c = 0
    var tries = 0
    while !settled do
      awaitQuiescent(d, what)
      c = d.count.get
      tries += 1
      // A reading stands once taken between two quiescent looks; a non-zero one only if it
      // persists.
      settled = d.quiescent && (c == 0 || tries >= 200)
      if !settled then Thread.sleep(1)
    c

  /**
   * A member's loop: take a token and pass one on while `hops` lasts; else park as weft's waits
   * do (a weft park, then the interrupt status read and cleared), sometimes for a short time.
   */
  private def tokenLoop(
      hops: java.util.concurrent.atomic.AtomicInteger,
      calm: AtomicBoolean,
      seed: Long,
      interrupts: Boolean
  )(d: CountingDomain, i: Int, stop: AtomicBoolean): Unit =
    val r = SplittableRandom(seed + i)
    while !stop.get do
      if d.tokens(i).get > 0 then
        d.tokens(i).decrementAndGet()
        d.consumed(i).incrementAndGet()
        if hops.decrementAndGet() >= 0 then
          d.give(r.nextInt(d.size), interrupts && r.nextInt(4) == 0)
        if r.nextInt(8) == 0 then Thread.`yield`()
      else
        if !calm.get && r.nextInt(5) == 0 then
          Fiber.parkNanos(d.blocker, 1_000L + r.nextInt(50_000))
        else Fiber.park(d.blocker)
        Fiber.interrupted(): Unit

  /**
   * Rounds of token passing: wakes by [[Fiber.unpark]] (and by [[Fiber.interrupt]] if
   * `interrupts`), with foreign unparks and interrupts, timed and untimed parks.
   */
  private def tokenRounds(interrupts: Boolean): Unit =
    val hops = java.util.concurrent.atomic.AtomicInteger(0)
    val calm = AtomicBoolean(false)
    val seed = System.nanoTime()
    withMembers(members)(tokenLoop(hops, calm, seed, interrupts)): (d, stop) =>
      val observing = AtomicBoolean(true)
      val zeroReads = java.util.concurrent.atomic.AtomicLong(0)
      // The observer reads the count as the kit's driver does; at each zero, no delivered token
      // may be untaken (read `delivered` before the count, `consumed` after it).
      val observer = Thread.ofPlatform().start: () =>
        val before = new Array[Long](d.size)
        while observing.get do
          Thread.onSpinWait()
          for i <- 0 until d.size do before(i) = d.delivered(i).get
          if d.count.get == 0 then
            zeroReads.incrementAndGet()
            for i <- 0 until d.size do
              val c = d.consumed(i).get
              if c < before(i) then
                val t = d.threads(i).nn
                d.errors.add(
                  s"count 0 while member $i had ${before(i)} tokens delivered, $c taken " +
                    s"(now: state ${CountingDomain.stateOf(t)}, count ${d.count.get}, " +
                    s"${t.getState}, ${t.getStackTrace.take(6).mkString("\n    ")})"
                )
      try
        val r = SplittableRandom(seed)
        for round <- 1 to rounds do
          calm.set(false)
          hops.set(20 + r.nextInt(200))
          for _ <- 0 until 1 + r.nextInt(4) do
            d.give(r.nextInt(d.size), interrupts && r.nextBoolean())
          // Wakes the domain cannot see: spurious unparks and foreign interrupts.
          for _ <- 0 until r.nextInt(6) do
            val i = r.nextInt(d.size)
            if r.nextInt(3) == 0 then d.threads(i).nn.interrupt() else d.foreignUnpark(i)
          calm.set(true)
          val c = settledCount(d, s"round $round, seed $seed")
          if c != 0 then
            val counted = d.snapshot().filterNot(_.parkedInWeft)
              .map(m => s"${m.name} at ${m.stack.take(8).mkString("\n    ")}")
            fail(s"round $round (seed $seed): every member parked, yet the count reads $c; " +
              s"counted:\n${counted.mkString("\n")}")
          assert(d.lowest.get >= 0, s"round $round (seed $seed): the count fell to ${d.lowest}")
      finally
        observing.set(false)
        observer.join()
      val errs = d.errors.asScala.toList
      assert(errs.isEmpty, s"seed $seed, ${errs.size} errors:\n${errs.take(10).mkString("\n")}")
      assert(zeroReads.get > 0, "the observer never saw the domain idle")

  // Regression: the `Permit` branch of `Member.park` parked for the waker's JDK permit, which
  // something could take first (a JDK park in between: the deterministic test below); the
  // member then blocked while counted, and the count read 1 for good with every member parked.
  test("the count is the members not parked, and never zero under a woken member"):
    tokenRounds(interrupts = false)

  // The same, with wakes by `Fiber.interrupt` mixed in.
  test("the same with wakes by interrupt"):
    tokenRounds(interrupts = true)

  /**
   * A member that spins until `go`, then runs `between` and parks in a weft park until a token
   * comes: the count must drop to zero once it parks, whatever `between` did.
   */
  private def wakeWhileRunning(wake: Fiber => Unit)(between: () => Unit): Unit =
    val go = AtomicBoolean(false)
    val loop = (d: CountingDomain, _: Int, stop: AtomicBoolean) =>
      while !go.get do Thread.onSpinWait()
      between()
      while d.tokens(0).get == 0 && !stop.get do Fiber.park(d.blocker)
    withMembers(1)(loop): (d, _) =>
      wake(Fiber.ofThread(d.threads(0).nn)) // the member runs: it keeps the wake as a permit
      go.set(true)
      val c = settledCount(d, "the member should park")
      assertEquals(c, 0, "the member parks in a weft wait, yet it is counted runnable")

  test("a wake while running, then a park: counted until it parks, not after"):
    wakeWhileRunning(_.unpark())(() => ())

  test("an interrupt while running, then a park that returns and parks again"):
    wakeWhileRunning(_.interrupt()): () =>
      // A weft park returns at once on the interrupt, and the wait reads and clears it.
      Fiber.park(new Object)
      Fiber.interrupted(): Unit

  // weft itself clears an interrupt without parking (TimeoutRegion.close,
  // RunnableFuture.uninterruptibly, KeyedTask): the next weft park must not block while counted.
  test("an interrupt while running, cleared before the next park"):
    wakeWhileRunning(_.interrupt())(() => Fiber.interrupted(): Unit)

  // Regression: a wake that finds the member running moves it to `Permit`; the next weft park
  // trusted the JDK's permit to return at once, but a JDK park in between (a contended
  // `ReentrantLock`, a JDK queue, a spin's `parkNanos`) takes that permit, and the weft park
  // then blocked while the member was counted runnable (the virtual clock stalled).
  test("regression: an unpark while running, its permit taken by a JDK park"):
    wakeWhileRunning(_.unpark())(() => LockSupport.parkNanos(1_000_000L))

  test("wakes of a parked member, each followed by a park: the count returns to zero"):
    val loop = (d: CountingDomain, _: Int, stop: AtomicBoolean) =>
      while !stop.get do
        if d.tokens(0).get > 0 then
          d.tokens(0).decrementAndGet()
          d.consumed(0).incrementAndGet(): Unit
        else
          Fiber.park(d.blocker)
          Fiber.interrupted(): Unit
    withMembers(1)(loop): (d, _) =>
      for n <- 1 to 50 do
        assertEquals(settledCount(d, s"before wake $n"), 0, s"before wake $n")
        d.give(0, byInterrupt = n % 2 == 0) // the member parks: the wake counts it
        assertEquals(settledCount(d, s"after wake $n"), 0, s"after wake $n")
