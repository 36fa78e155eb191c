package weft.keyed

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.AtomicBoolean
import weft.*
import weft.testing.InvariantChecks

/**
 * A caller of `Sequentially.run` whose fiber is interrupted (not cancelled) while its task waits
 * in the key's queue gets an `InterruptedException` and its task is withdrawn: it never runs
 * after its caller has left. (A cancelled caller withdraws it through its scope; a bare
 * interrupt reaches only `run`'s own handler.)
 */
class SequentiallyInterruptedCallerSuite extends munit.FunSuite, InvariantChecks:

  test("an interrupted caller's queued task never runs"):
    val ran = AtomicBoolean(false)
    @volatile var outcome: Throwable | Null = null
    holdsWithin(10, "the task of a caller that left Sequentially.run never runs"):
      Async.blocking:
        val seq = Sequentially[String]()
        val release = CountDownLatch(1)
        val busy = seq.submit("k")(release.await())
        val callerThread = Promise[Thread]()
        val caller = Future:
          callerThread.success(Thread.currentThread())
          try seq.run("k")(ran.set(true))
          catch case e: Throwable => outcome = e
        val t = callerThread.future.value
        while t.getState != Thread.State.WAITING do Thread.onSpinWait() // parked in run's await
        t.interrupt()
        caller.await
        release.countDown()
        busy.await
        seq.run("k")(()) // every earlier task of the key has run or been withdrawn
    assert(outcome.isInstanceOf[InterruptedException], s"the caller got $outcome")
    assert(!ran.get, "the task ran after its caller had left run()")
