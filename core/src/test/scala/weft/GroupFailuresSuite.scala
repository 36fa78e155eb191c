package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.atomic.AtomicReference
import scala.jdk.CollectionConverters.*
import weft.testing.TimeTesting.awaitCondition

/**
 * Where the unobserved failure of a future that changed groups is reported, that every join
 * reports its group's held failures, and that groups cannot be linked in a cycle: a moved
 * future's failure is its new group's, an unlinked one's is reported at once, `join()` and a
 * parent's join of a drained nested group report the failures they held (each once), and a
 * `link` that would close a cycle is refused. Each test runs from the caller [[onCaller]]
 * gives, under a deadline.
 */
class GroupFailuresSuite extends munit.FunSuite, weft.testing.StressChecks:

  /** Runs `body` as the test's caller (a platform thread here), failing it if it hangs. */
  def onCaller(body: => Unit): Unit = withinDeadline(20, "weft-group-failures-")(body)

  /** A one-shot gate. */
  private def latch(): CountDownLatch = CountDownLatch(1)

  /** A failure of a test body's own, told apart from anything else reported. */
  final class Boom(msg: String) extends RuntimeException(msg)

  /** Runs `body` with a handler that records every report into `reports`. */
  private def recording(reports: ConcurrentLinkedQueue[Throwable])(body: => Unit): Unit =
    UnobservedFailures.withHandler(e => reports.add(e): Unit)(body)

  private def messages(reports: ConcurrentLinkedQueue[Throwable]): List[String] =
    reports.asScala.toList.map(_.getMessage)

  test("a moved future's failure is reported at its new scope's join, not its old one's"):
    onCaller:
      val reports = ConcurrentLinkedQueue[Throwable]()
      recording(reports):
        Async.blocking:
          val started = latch()
          val release = latch()
          val f = Future { started.countDown(); release.await(); throw Boom("moved") }
          started.await()
          Async.group:
            val inner = summon[Async].group
            f.link(inner)
            release.countDown()
            // Ended by its own failure, not by this scope's cancel at its end.
            awaitCondition("the moved future fails and leaves")(inner.size == 0)
          // The nested scope it moved to joined it: that join reported its failure.
          assertEquals(messages(reports), List("moved"))
      assertEquals(messages(reports), List("moved"), "reported more than once")

  test("a future moved to a user group fails: that group's join reports it"):
    onCaller:
      val reports = ConcurrentLinkedQueue[Throwable]()
      val other = CompletionGroup()
      val release = latch()
      recording(reports):
        Async.blocking:
          val started = latch()
          Future { started.countDown(); release.await(); throw Boom("moved") }.link(other)
          started.await()
        assertEquals(messages(reports), Nil, "the scope it left reported it")
        release.countDown()
        Async.blocking(other.join())
        assertEquals(messages(reports), List("moved"))

  test("an unlinked future's unobserved failure is reported at once"):
    onCaller:
      val reports = ConcurrentLinkedQueue[Throwable]()
      recording(reports):
        Async.blocking:
          val started = latch()
          val release = latch()
          val f = Future { started.countDown(); release.await(); throw Boom("unlinked") }
          started.await()
          f.unlink()
          release.countDown()
          awaitCondition("the unlinked future's failure is reported")(!reports.isEmpty)
          assertEquals(messages(reports), List("unlinked"))
      assertEquals(messages(reports), List("unlinked"), "reported more than once")

  test("join() reports the group's unobserved failures, once"):
    onCaller:
      val reports = ConcurrentLinkedQueue[Throwable]()
      val g = CompletionGroup()
      recording(reports):
        Async.blocking:
          Future[Int](throw Boom("in a user group"))(using summon[Async].withGroup(g))
          g.join()
          assertEquals(messages(reports), List("in a user group"))
          g.join()
      assertEquals(messages(reports), List("in a user group"), "reported more than once")

  test("a scope's join reports the failures of a user group linked to it, once"):
    onCaller:
      val reports = ConcurrentLinkedQueue[Throwable]()
      recording(reports):
        Async.blocking:
          val g = CompletionGroup().link(summon[Async].group)
          val sub = CompletionGroup().link(g)
          Future[Int](throw Boom("in g"))(using summon[Async].withGroup(g))
          Future[Int](throw Boom("in sub"))(using summon[Async].withGroup(sub))
          // Both ended by their own failures, not by the scope's cancel at its end.
          awaitCondition("both futures fail and leave")(sub.size == 0 && g.size == 1)
      assertEquals(messages(reports).sorted, List("in g", "in sub"))

  test("a group linked to itself, or in a cycle, is refused at link"):
    onCaller:
      val a = CompletionGroup()
      val b = CompletionGroup()
      val c = CompletionGroup()
      val self = intercept[IllegalArgumentException](a.link(a))
      assert(self.getMessage.contains("cycle"), self.getMessage)
      b.link(a)
      val two = intercept[IllegalArgumentException](a.link(b))
      assert(two.getMessage.contains("cycle"), two.getMessage)
      c.link(b)
      val three = intercept[IllegalArgumentException](a.link(c))
      assert(three.getMessage.contains("cycle"), three.getMessage)
      // The refused links changed nothing: `a` is still nobody's, `b` still `a`'s.
      assertEquals(a.currentGroup, null)
      assertEquals(b.currentGroup, a)
      assertEquals(c.currentGroup, b)
      assertEquals(a.size, 1)

/** [[GroupFailuresSuite]], every scope entered from a virtual thread. */
class GroupFailuresOnVirtualThreadSuite extends GroupFailuresSuite:
  override def onCaller(body: => Unit): Unit =
    withinDeadline(20, "weft-group-failures-vt-"):
      val failure = AtomicReference[Throwable]()
      val vt = Thread.ofVirtual().start(() =>
        try body
        catch case e: Throwable => failure.set(e)
      )
      vt.join()
      if failure.get != null then throw failure.get
