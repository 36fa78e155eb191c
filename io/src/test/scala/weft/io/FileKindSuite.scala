package weft.io

import java.io.IOException
import java.nio.ByteBuffer
import java.nio.channels.ClosedByInterruptException
import java.nio.file.{FileSystemException, Files, Path, StandardOpenOption as O}
import java.util.concurrent.{CountDownLatch, TimeUnit}
import scala.util.Success
import weft.{Async, await}

/**
 * Which files `File` transfers in place and which on their own thread: `open` probes whether the
 * file can seek (streams cannot), and the probe's corner cases (append mode, interrupts,
 * directories, devices).
 */
class FileKindSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val dir = FunFixture[Path](
    _ => Files.createTempDirectory("weft-io-kind"),
    d => TestFiles.deleteTree(d)
  )

  dir.test("a small read on a FIFO runs on its own thread: pending until the writer writes"): d =>
    val fifo = d.resolve("fifo")
    assume(TestFiles.mkfifo(fifo), "mkfifo is not available here")
    val go = CountDownLatch(1)
    // a platform thread: opening a FIFO blocks until the other end opens, pinning a carrier
    val writer = Thread: () =>
      val out = java.io.FileOutputStream(fifo.toFile)
      try
        // bounded, so that a wrong in-place read fails this test (the poll below sees the
        // value) instead of blocking it forever
        go.await(60, TimeUnit.SECONDS)
        out.write("wxyz".getBytes)
      finally out.close()
    writer.start()
    try
      Async.blocking:
        PIOHelper.withFile(fifo.toString): f =>
          val r = f.readString(4)
          // in place, the read would have blocked this thread until the writer wrote
          assertEquals(r.poll(), None)
          go.countDown()
          assertEquals(r.await, "wxyz")
    finally
      go.countDown()
      weft.testing.Waits.join(writer, "the FIFO's writer")

  dir.test("a small write on a FIFO goes through the channel on its own thread"): d =>
    val fifo = d.resolve("fifo-w")
    assume(TestFiles.mkfifo(fifo), "mkfifo is not available here")
    @volatile var got: String = null
    val reader = Thread(() => got = Files.readString(fifo))
    reader.start()
    try
      Async.blocking:
        PIOHelper.withFile(fifo.toString, O.WRITE): f =>
          assertEquals(f.writeString("żółw").await, 7)
          assertEquals(f.writeString("!").await, 1)
    finally weft.testing.Waits.join(reader, "the FIFO's reader")
    assertEquals(got, "żółw!")

  dir.test("relative transfers follow one another: the position advances by bytes, not chars"): d =>
    val p = d.resolve("seq.txt")
    // multi-byte characters and a lone surrogate (written as '?', as String.getBytes does)
    val parts = Seq("ż", "ół\uD800w", "-\uD83D\uDE00-", "end")
    Async.blocking:
      PIOHelper.withFile(p.toString, O.CREATE, O.WRITE, O.READ): f =>
        for s <- parts do assertEquals(f.writeString(s).await, s.getBytes("UTF-8").length)
        f.write(ByteBuffer.wrap(Array[Byte]('.'))).await
    val expected = parts.map(s => String(s.getBytes("UTF-8"), "UTF-8")).mkString + "."
    assertEquals(Files.readString(p), expected)
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        val b = ByteBuffer.allocate(2)
        assertEquals(f.read(b).await, 2)
        assertEquals(String(b.array, "UTF-8"), "ż")
        assertEquals(f.read(ByteBuffer.allocate(4), 0).await, 4) // positional: no move
        assertEquals(f.readString(4).await, "ół")
        assertEquals(f.readString(1000).await, expected.substring(3))
        assertEquals(f.read(ByteBuffer.allocate(1)).await, -1)

  dir.test("the seek probe keeps append mode: small writes land at the end, in place"): d =>
    val p = d.resolve("append.txt")
    Files.writeString(p, "head-")
    Async.blocking:
      PIOHelper.withFile(p.toString, O.APPEND): f =>
        val w = f.writeString("tail")
        assertEquals(w.poll(), Some(Success(4)))
    assertEquals(Files.readString(p), "head-tail")

  dir.test("reads after open start at the beginning of the file"): d =>
    val p = d.resolve("start.txt")
    Files.writeString(p, "0123456789")
    Async.blocking:
      PIOHelper.withFile(p.toString, O.READ, O.WRITE): f =>
        assertEquals(f.readString(4).await, "0123")
        f.writeString("ab").await
    assertEquals(Files.readString(p), "0123ab6789")

  test("a seekable device such as /dev/zero is read in place"):
    val zero = Path.of("/dev/zero")
    assume(Files.isReadable(zero), "no /dev/zero here")
    Async.blocking:
      PIOHelper.withFile(zero.toString): f =>
        val b = ByteBuffer.allocate(8)
        b.put(Array.fill[Byte](8)(7)).clear()
        assertEquals(f.read(b).poll(), Some(Success(8)))
        assertEquals(b.array.toSeq, Seq.fill[Byte](8)(0))
        // a device reports size 0: readString grows its array as on a pipe
        assertEquals(f.readString(100_000).await, "\u0000" * 100_000)

  dir.test("an interrupted caller: the JDK closes the file, the transfer fails naming the path"):
    d =>
      val p = d.resolve("interrupted.txt")
      Files.writeString(p, "x")
      Async.blocking:
        val f = File(p.toString).open()
        try
          Thread.currentThread().interrupt()
          val r =
            try f.readString(1).result
            finally Thread.interrupted()
          val e = r.failed.get
          assert(e.isInstanceOf[ClosedByInterruptException], e)
          assert(e.getMessage.contains(p.toString), e.getMessage)
          assert(!f.isOpened)
        finally f.close()

  dir.test("a directory: no writing open; opened for reading, reads fail naming the path"): d =>
    val sub = Files.createDirectory(d.resolve("sub"))
    val e = intercept[FileSystemException](File(sub.toString).open(O.WRITE))
    assert(e.getMessage.contains(sub.toString), e.getMessage)
    Async.blocking:
      PIOHelper.withFile(sub.toString): f =>
        val r = f.readString(4).result
        val err = r.failed.get
        assert(err.isInstanceOf[IOException], err)
        assert(err.getMessage.contains(sub.toString), err.getMessage)
