package weft.io

import java.nio.ByteBuffer
import java.util.concurrent.atomic.AtomicReference
import weft.{Async, CompletionGroup, await}
import weft.testing.TimeTesting.awaitCondition

/**
 * An IO operation's future moved into another group after it finished adds nothing for that
 * group to wait for: the scope it is linked into ends. Run from the caller [[onCaller]] gives,
 * under a deadline (a scope waiting for the finished task hangs into it).
 */
class IOTaskMembershipSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** Runs `body` as the test's caller (a platform thread here), failing it if it hangs. */
  def onCaller(body: => Unit): Unit = withinDeadline(20, "weft-iotask-")(body)

  test("linking a finished send into a nested scope does not hold that scope"):
    onCaller:
      Async.blocking:
        PIOHelper.withSocketUDP(0): server =>
          PIOHelper.withSocketUDP(): s =>
            val f = s.send(ByteBuffer.wrap(Array[Byte](1)), "127.0.0.1", server.localPort)
            f.await
            val scope = summon[Async].group
            awaitCondition("the finished send leaves its scope")(scope.size == 0)
            Async.group:
              f.link(summon[Async].group)
              assertEquals(summon[Async].group.size, 0, "a finished task was listed as live")
            val g = CompletionGroup()
            f.link(g)
            assertEquals(g.size, 0)

/** [[IOTaskMembershipSuite]], every scope entered from a virtual thread. */
class IOTaskMembershipOnVirtualThreadSuite extends IOTaskMembershipSuite:
  override def onCaller(body: => Unit): Unit =
    withinDeadline(20, "weft-iotask-vt-"):
      val failure = AtomicReference[Throwable]()
      val vt = Thread.ofVirtual().start(() =>
        try body
        catch case e: Throwable => failure.set(e)
      )
      weft.testing.Waits.join(vt, "the virtual caller")
      if failure.get != null then throw failure.get
