package weft.io

import java.nio.channels.{
  AsynchronousCloseException,
  ClosedByInterruptException,
  ClosedChannelException,
  NonReadableChannelException,
  NonWritableChannelException
}

/**
 * The errors weft.io raises carry the resource in their message and show only public JDK class
 * names: a user's log must never print an internal class (`weft.io.IOErrors$AsyncClosed`).
 */
class IOErrorsSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("errors with context keep their JDK type and show only its name"):
    val cases: Seq[Throwable] = Seq(
      AsynchronousCloseException(),
      ClosedByInterruptException(),
      ClosedChannelException(),
      NonReadableChannelException(),
      NonWritableChannelException()
    )
    for e <- cases do
      val out = IOErrors.withContext(e, "tcp 127.0.0.1:1")
      assert(e.getClass.isInstance(out), s"$out is not a ${e.getClass.getName}")
      assert(out.getMessage.contains("tcp 127.0.0.1:1"), out.getMessage)
      assert(out.toString.startsWith(e.getClass.getName + ": "), out.toString)
      assert(!out.toString.contains("IOErrors"), out.toString)

  test("a closed resource's error names the JDK class"):
    val e = IOErrors.closed("file /tmp/x")
    assertEquals(e.toString, "java.nio.channels.ClosedChannelException: file /tmp/x: closed")
