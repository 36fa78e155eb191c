package weft.keyed

import java.util.concurrent.{CancellationException, ConcurrentHashMap, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.{AtomicInteger, AtomicIntegerArray}
import java.util.concurrent.locks.LockSupport
import scala.concurrent.duration.DurationInt
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Random, Success, Try}
import weft.{Async, Future, await}

/**
 * Randomised stress of cancellation: several producer fibers submit and run tasks over a few
 * keys while canceller fibers cancel them at random moments, pending or running.
 *
 * Each task has a state cell: `New`, then `Started` (set by its body as it begins) or
 * `CancelledPending` (set by whoever cancelled it, right after `cancel()` returned, if the body
 * had not begun). A body may find `CancelledPending` only if `cancel()` caught its task already
 * running, just before the body's first instruction: then the interrupt was delivered before
 * `cancel()` returned, so the body begins interrupted. A body that finds `CancelledPending` and
 * is not interrupted ran although it was cancelled while pending: the bug this suite hunts.
 */
class SequentiallyCancelStressSuite extends munit.FunSuite, weft.testing.Deadlined:
  override val munitTimeout = 120.seconds
  override def testDeadlineSeconds: Int = 120

  private val New = 0
  private val Started = 1
  private val CancelledPending = 2

  /** What a producer does with one task. */
  private enum Op:
    case Submit, SubmitCancelNow, SubmitCancelLater, SubmitCancelRunning, Run, RunCancelled

  test("random cancels: per-key FIFO, no overlap, nothing cancelled while pending runs, no leaks"):
    val keys = 12
    val producers = 4
    val opsEach = 1500
    val total = producers * opsEach
    val states = AtomicIntegerArray(total)
    val interruptedAtStart = AtomicIntegerArray(total)
    val inFlight = Array.fill(keys)(AtomicInteger())
    val overlaps = AtomicInteger()
    val ranAfterCancel = AtomicInteger()
    val logs = Array.fill(keys)(ConcurrentLinkedQueue[Int]()) // task ids, in start order
    val threads = ConcurrentHashMap.newKeySet[Thread]()
    val ops = Array.ofDim[Op](total)
    val results = Array.ofDim[Future[Unit]](total)
    var seqRef: Sequentially[Int] = null

    def body(k: Int, id: Int, slow: Boolean): Unit =
      val before = states.getAndSet(id, Started)
      val interrupted = Thread.currentThread().isInterrupted
      if interrupted then interruptedAtStart.set(id, 1)
      if before == CancelledPending && !interrupted then ranAfterCancel.incrementAndGet()
      threads.add(Thread.currentThread())
      if inFlight(k).incrementAndGet() != 1 then overlaps.incrementAndGet()
      logs(k).add(id)
      inFlight(k).decrementAndGet()
      // a sleep to be interrupted in, entered after leaving the critical section
      if slow then Thread.sleep(3) else if id % 5 == 0 then Thread.`yield`()

    /**
     * Waits a little, freeing the carrier thread. (Not `Thread.yield`: two fibers spinning on
     * it can keep both carriers of a 2-core machine, starving the fibers they wait for.)
     */
    def pause(): Unit = LockSupport.parkNanos(20_000)

    /** Cancels `f`; marks its task cancelled-while-pending if its body had not begun. */
    def cancel(id: Int, f: Future[?]): Unit =
      f.cancel()
      states.compareAndSet(id, New, CancelledPending)

    Async.blocking:
      val seq = Sequentially[Int](maxPendingPerKey = 16)
      seqRef = seq
      val toCancel = ConcurrentLinkedQueue[Integer]()
      val producersDone = AtomicInteger()
      val cancellers = (0 until 2).map: c =>
        Future:
          val rnd = Random(100 + c)
          var finished = false
          while !finished do
            val id = toCancel.poll()
            if id == null then
              if producersDone.get == producers && toCancel.isEmpty then finished = true
              else pause()
            else
              val f = results(id)
              if ops(id) == Op.SubmitCancelRunning then
                while states.get(id) == New do pause()
              else for _ <- 0 until rnd.nextInt(3) do Thread.`yield`()
              cancel(id, f)
      val producing = (0 until producers).map: p =>
        Future:
          val rnd = Random(p)
          try
            for i <- 0 until opsEach do
              val id = p * opsEach + i
              val k = rnd.nextInt(keys)
              val op = rnd.nextInt(20) match
                case 0 | 1 | 2   => Op.SubmitCancelNow
                case 3 | 4 | 5   => Op.SubmitCancelLater
                case 6           => Op.SubmitCancelRunning
                case 7 | 8       => Op.Run
                case 9 | 10 | 11 => Op.RunCancelled
                case _           => Op.Submit
              ops(id) = op
              op match
                case Op.Run =>
                  seq.run(k)(body(k, id, slow = false))
                  results(id) = Future.successful(())
                case Op.RunCancelled =>
                  results(id) = Future(seq.run(k)(body(k, id, slow = false)))
                  toCancel.add(id)
                case _ =>
                  val slow = op == Op.SubmitCancelRunning || op == Op.SubmitCancelLater
                  val f = seq.submit(k)(body(k, id, slow))
                  results(id) = f
                  if op == Op.SubmitCancelNow then cancel(id, f)
                  else if op != Op.Submit then toCancel.add(id)
          finally producersDone.incrementAndGet()
      producing.foreach(_.await)
      cancellers.foreach(_.await)
      val outcomes: IndexedSeq[Try[Unit]] = results.toIndexedSeq.map(f => Async.await(f))
      for id <- 0 until total do
        val ran = states.get(id) == Started
        outcomes(id) match
          case Success(_) =>
            assert(ran, s"task $id (${ops(id)}) succeeded without running")
            assertEquals(interruptedAtStart.get(id), 0, s"task $id started interrupted")
          case Failure(_: CancellationException) =>
            assert(ops(id) != Op.Submit && ops(id) != Op.Run, s"task $id cancelled by no one")
          case Failure(e) => fail(s"task $id (${ops(id)}) failed with $e")
      val cancelledRunning = (0 until total).count: id =>
        states.get(id) == Started && outcomes(id).isFailure
      val cancelledPending = (0 until total).count: id =>
        states.get(id) == CancelledPending && ops(id) != Op.RunCancelled
      assert(cancelledRunning > 0, "no running task was cancelled: the test lost its teeth")
      assert(cancelledPending > 0, "no pending task was cancelled: the test lost its teeth")
      for k <- 0 until keys do seq.run(k)(()) // every earlier task of k has finished
      assertEquals(seq.activeKeys, 0)

    assertEquals(ranAfterCancel.get, 0, "tasks ran after being cancelled while pending")
    assertEquals(overlaps.get, 0, "two tasks of one key overlapped")
    for k <- 0 until keys; p <- 0 until producers do
      // direct `run` and plain `submit` calls keep their producer's program order; the others
      // (a `run` in its own future) have no order to keep with their producer
      val order =
        logs(k).asScala.toSeq.filter(id => id / opsEach == p && ops(id) != Op.RunCancelled)
      assertEquals(order, order.sorted, s"producer $p, key $k: tasks ran out of order")
    assertEquals(seqRef.workerCount, 0)
    val alive = threads.asScala.filter(_.isAlive)
    assert(alive.isEmpty, s"${alive.size} threads outlived the scope")

  test("a cancel racing the end of a task's body never interrupts the key's next task"):
    // The canceller cancels each task the moment its body ends (the body waits, briefly, for
    // the canceller to see it end), so the cancel races the runner completing the future:
    // whichever completes it wins, and a canceller that lost must not interrupt the fiber, which
    // may be running the key's next task already (a body that sees an interrupt before it ends
    // shows that: no cancel of its own comes before then).
    val total = 60_000
    val ended = AtomicIntegerArray(total)
    val seen = AtomicIntegerArray(total)
    val strayInterrupts = AtomicInteger()
    val results = Array.ofDim[Future[Unit]](total)
    val submitted = AtomicInteger()
    Async.blocking:
      val seq = Sequentially[Int](maxPendingPerKey = 32)
      val producer = Future:
        for id <- 0 until total do
          results(id) = seq.submit(id % 2):
            // no cancel of this task can come before `ended`: any interrupt seen here is stray
            if Thread.currentThread().isInterrupted then strayInterrupts.incrementAndGet()
            Thread.onSpinWait()
            if Thread.currentThread().isInterrupted then strayInterrupts.incrementAndGet()
            ended.set(id, 1)
            var spins = 0
            while seen.get(id) == 0 && spins < 500 do
              Thread.onSpinWait()
              spins += 1
          submitted.incrementAndGet()
      val canceller = Future:
        for id <- 0 until total do
          var spins = 0
          while submitted.get <= id || (ended.get(id) == 0 && results(id).poll().isEmpty) do
            if spins < 1000 then Thread.onSpinWait() else LockSupport.parkNanos(10_000)
            spins += 1
          seen.set(id, 1)
          results(id).cancel()
      producer.await
      canceller.await
      val outcomes = results.toIndexedSeq.map(f => Async.await(f))
      val cancelled = outcomes.count:
        case Failure(_: CancellationException) => true
        case Success(_)                        => false
        case Failure(e)                        => fail(s"a task failed with $e")
      val cancelledAfterEnd = (0 until total).count(id =>
        ended.get(id) == 1 && outcomes(id).isFailure
      )
      assert(
        cancelledAfterEnd > 0,
        "no cancel won against a body at its end: the test lost its teeth"
      )
      assert(cancelled < total, "every cancel won: the test lost its teeth")
    assertEquals(strayInterrupts.get, 0, "a task saw another task's interrupt")

  test("scope ends mid-flight: unfinished tasks end cancelled, never interrupted, no leaks"):
    val threads = ConcurrentHashMap.newKeySet[Thread]()
    for round <- 0 until 40 do
      val rnd = Random(round)
      var seqRef: Sequentially[Int] = null
      val futures = Async.blocking:
        val seq = Sequentially[Int](maxPendingPerKey = 64)
        seqRef = seq
        val producing = (0 until 3).map: p =>
          Future:
            (0 until 200).map: i =>
              val slow = (i + p) % 7 == 0
              seq.submit(rnd.nextInt(16)):
                threads.add(Thread.currentThread())
                if slow then Thread.sleep(1)
                i
        val fs = producing.flatMap(_.await)
        for _ <- 0 until rnd.nextInt(50) do Thread.`yield`()
        fs // the scope ends now, with tasks queued and running
      assertEquals(seqRef.workerCount, 0)
      futures.foreach: f =>
        f.poll() match
          case Some(Success(_))                        => ()
          case Some(Failure(_: CancellationException)) => ()
          case other => fail(s"round $round: a task ended with $other")
    val alive = threads.asScala.filter(_.isAlive)
    assert(alive.isEmpty, s"${alive.size} threads outlived their scope")
