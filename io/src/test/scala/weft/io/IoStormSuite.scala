package weft.io

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.atomic.AtomicLong
import scala.concurrent.duration.*
import weft.*
import weft.testing.Storm
import weft.testing.OpenFds
import weft.testing.Stress

/**
 * The cancellation storm of `CancellationStormSuite`, around io reads: file reads and TCP reads
 * given up at random moments complete exactly once, and leave no file descriptor open.
 */
class IoStormSuite extends munit.FunSuite, weft.testing.Deadlined:

  // above the storms' own 240 s deadlines, which dump the threads first
  override def testDeadlineSeconds: Int = 300

  override val munitTimeout = 5.minutes

  def assertClean(name: String, r: Storm.Report): Unit =
    println(s"storm $name: $r")
    assertEquals(r.notExactlyOnce.take(5), Nil, s"calls not completed exactly once ($r)")
    assertEquals(r.count(Storm.Outcome.Failed), 0, s"calls failed unexpectedly ($r)")
    assertEquals(r.aliveThreads.take(3), Nil, s"threads outlived their scope ($r)")
    assert(r.count(Storm.Outcome.Returned) > 0, s"no call finished ($r)")

  test("file reads given up at random leave no descriptor open".tag(Stress.tag)):
    withinDeadline(240, "storm-file"):
      val path = java.nio.file.Files.createTempFile("weft-storm", ".bin")
      java.nio.file.Files.write(path, Array.tabulate[Byte](128 * 1024)(_.toByte))
      val bytes = AtomicLong()
      try
        val before = OpenFds.count()
        val r = Storm.run(n = Storm.ops / 4): i =>
          PIOHelper.withFile(path.toString): f =>
            // Reads above File.InPlaceLimit run on a thread of their own: cancellable.
            val b = ByteBuffer.allocate(96 * 1024)
            for block <- 0 until 4 do
              b.clear()
              val n = f.read(b, 0L).await
              bytes.addAndGet(n.toLong)
        assertClean("file", r)
        assertEquals(bytes.get % (96 * 1024), 0L, "a read returned a partial block")
        val after = OpenFds.count()
        assert(after - before <= 10, s"file descriptors leaked: $before -> $after")
      finally java.nio.file.Files.delete(path)

  test("TCP reads given up at random leave no descriptor open".tag(Stress.tag)):
    withinDeadline(240, "storm-tcp"):
      val before = OpenFds.count()
      Async.blocking:
        PIOHelper.withTcpServer(0): server =>
          Future:
            while true do
              val c = server.accept().await
              Future:
                try
                  val line = c.readLine().await
                  c.write(ByteBuffer.wrap(s"$line\r\n".getBytes(UTF_8))).await: Unit
                finally c.close()
          val r = Storm.run(n = Storm.ops / 8): i =>
            val c = TcpConnection.connect("127.0.0.1", server.localPort).await
            try
              c.write(ByteBuffer.wrap(s"ping $i\r\n".getBytes(UTF_8))).await
              assertEquals(c.readLine().await, s"ping $i")
            finally c.close()
          assertClean("tcp", r)
      val after = OpenFds.count()
      assert(after - before <= 10, s"file descriptors leaked: $before -> $after")
