package weft.io

import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, NoSuchFileException, Path, StandardOpenOption as O}
import java.util.concurrent.CancellationException
import scala.util.{Failure, Success}
import weft.{Async, Future, await}

/** `File` and `PIOHelper.withFile` on real files in a temporary directory. */
class FileSuite extends munit.FunSuite:

  private val dir = FunFixture[Path](
    _ => Files.createTempDirectory("weft-io-file"),
    d => TestFiles.deleteTree(d)
  )

  dir.test("writeString then readString round-trips a small file"): d =>
    val p = d.resolve("hello.txt").toString
    Async.blocking:
      val written = PIOHelper.withFile(p, O.CREATE, O.WRITE)(_.writeString("Hello world!").await)
      assertEquals(written, 12)
      assertEquals(PIOHelper.withFile(p)(_.readString(100).await), "Hello world!")
    assertEquals(Files.readString(Path.of(p)), "Hello world!")

  dir.test("readString decodes the given charset and stops at `size` bytes"): d =>
    val p = d.resolve("utf16.txt")
    Files.writeString(p, "żółw-turtle", StandardCharsets.UTF_16BE)
    Async.blocking:
      val s = PIOHelper.withFile(p.toString)(_.readString(8, StandardCharsets.UTF_16BE).await)
      assertEquals(s, "żółw")

  dir.test("read is a single POSIX-like read: partial at the end, -1 after"): d =>
    val p = d.resolve("short.bin")
    Files.write(p, Array[Byte](1, 2, 3))
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        val b = ByteBuffer.allocate(10)
        assertEquals(f.read(b).await, 3)
        assertEquals(b.position(), 3)
        assertEquals(f.read(b).await, -1)

  dir.test("positional reads and writes leave the file position alone"): d =>
    val p = d.resolve("pos.bin").toString
    Async.blocking:
      PIOHelper.withFile(p, O.CREATE, O.READ, O.WRITE): f =>
        f.writeString("0123456789").await
        f.write(ByteBuffer.wrap("AB".getBytes), 4).await
        val b = ByteBuffer.allocate(4)
        assertEquals(f.read(b, 3).await, 4)
        assertEquals(String(b.array, StandardCharsets.UTF_8), "3AB6")
        assertEquals(f.read(ByteBuffer.allocate(4)).await, -1) // position still at the end
    assertEquals(Files.readString(Path.of(p)), "0123AB6789")

  dir.test("a 40 MB file: writeString, readString and chunked reads agree"): d =>
    val p = d.resolve("big.txt").toString
    val text = TestFiles.text(40 * 1024 * 1024)
    Async.blocking:
      PIOHelper.withFile(p, O.CREATE, O.WRITE, O.TRUNCATE_EXISTING)(_.writeString(text).await)
      assertEquals(PIOHelper.withFile(p)(_.readString(text.length).await), text)
      // chunked reads into one reused buffer see every byte in order
      PIOHelper.withFile(p): f =>
        val b = ByteBuffer.allocate(1 << 20)
        var total = 0L
        var mismatch = -1L
        var n = f.read(b).await
        while n >= 0 do
          b.flip()
          while b.hasRemaining do
            if b.get() != text.charAt(total.toInt) && mismatch < 0 then mismatch = total
            total += 1
          b.clear()
          n = f.read(b).await
        assertEquals(total, text.length.toLong)
        assertEquals(mismatch, -1L)

  dir.test("the scope does not keep a completed read's result alive"): d =>
    val p = d.resolve("dropped.txt")
    Files.writeString(p, TestFiles.text(1 << 20)) // above InPlaceLimit: read on its own thread
    Async.blocking:
      val weak = PIOHelper.withFile(p.toString)(f => readWeakly(f))
      // still inside the scope, which keeps the finished thread until it ends
      var tries = 0
      while weak.get() != null && tries < 200 do
        System.gc()
        Thread.sleep(10)
        tries += 1
      assert(weak.get() == null, "the string read is still reachable")

  /** Reads the whole file and returns only a weak reference to the string. */
  private def readWeakly(f: File)(using Async): java.lang.ref.WeakReference[String] =
    java.lang.ref.WeakReference(f.readString(1 << 20).await)

  dir.test("hundreds of concurrent positional reads on one file"): d =>
    val p = d.resolve("shared.txt")
    val text = TestFiles.text(64 * 1024)
    Files.writeString(p, text)
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        val reads = (0 until 400).map: i =>
          Future:
            val at = (i * 97) % (text.length - 100)
            val b = ByteBuffer.allocate(100)
            f.read(b, at).await
            (at, String(b.array, StandardCharsets.UTF_8))
        reads.foreach: r =>
          val (at, s) = r.await
          assertEquals(s, text.substring(at, at + 100))

  dir.test("a missing file throws NoSuchFileException naming the path"): d =>
    val p = d.resolve("missing.txt").toString
    val e = intercept[NoSuchFileException](PIOHelper.withFile(p)(_ => ()))
    assert(e.getMessage.contains(p), e.getMessage)
    val inFuture = Async.blocking(Future(PIOHelper.withFile(p)(_ => ())).result)
    assert(inFuture.failed.get.isInstanceOf[NoSuchFileException])

  dir.test("operations on a closed or never-opened file fail with ClosedChannelException"): d =>
    val p = d.resolve("c.txt")
    Files.writeString(p, "x")
    Async.blocking:
      val f = File(p.toString)
      assert(!f.isOpened)
      val r1 = f.read(ByteBuffer.allocate(1)).result
      f.open()
      assert(f.isOpened)
      f.close()
      f.close() // idempotent
      val r2 = f.readString(1).result
      for r <- Seq(r1, r2) do
        val e = r.failed.get
        assert(e.isInstanceOf[ClosedChannelException], e)
        assert(e.getMessage.contains(p.toString), e.getMessage)

  dir.test("bad input is rejected at the call"): d =>
    val p = d.resolve("b.txt")
    Files.writeString(p, "x")
    intercept[IllegalArgumentException](File(""))
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        intercept[IllegalArgumentException](f.readString(-1))
        intercept[IllegalArgumentException](f.read(ByteBuffer.allocate(1), -1))
        intercept[IllegalArgumentException](f.read(ByteBuffer.allocate(1).asReadOnlyBuffer()))
        intercept[IllegalStateException](f.open())

  dir.test("cancelling a 40 MB read in flight closes the file"): d =>
    val p = d.resolve("big-cancel.txt")
    Files.writeString(p, TestFiles.text(40 * 1024 * 1024))
    Async.blocking:
      val f = File(p.toString).open()
      val r = f.readString(40 * 1024 * 1024) // above InPlaceLimit: on its own thread
      r.cancel()
      assert(r.result.failed.get.isInstanceOf[CancellationException])
      assert(!f.isOpened)
      val after = f.readString(1).result
      assert(after.failed.get.isInstanceOf[ClosedChannelException], after)

  dir.test("small transfers on a regular file return completed futures"): d =>
    val p = d.resolve("inplace.txt")
    Files.writeString(p, "abc")
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        val r = f.readString(3)
        assertEquals(r.poll(), Some(Success("abc")))
        r.cancel() // a completed future: nothing happens
        assert(f.isOpened)

  dir.test("withFile closes the file when the body throws or the scope is cancelled"): d =>
    val p = d.resolve("w.txt")
    Files.writeString(p, "x")
    var seen: File = null
    intercept[IllegalStateException]:
      PIOHelper.withFile(p.toString): f =>
        seen = f
        throw IllegalStateException("boom")
    assert(!seen.isOpened)
    val big = d.resolve("big-w.txt")
    Files.writeString(big, TestFiles.text(40 * 1024 * 1024))
    @volatile var inner: File = null
    val outcome = Async.blocking:
      val worker = Future:
        PIOHelper.withFile(big.toString): f =>
          inner = f
          while true do f.readString(40 * 1024 * 1024, StandardCharsets.UTF_8).await
      while inner == null do Thread.sleep(1)
      worker.cancel()
      worker.result
    assert(outcome.failed.get.isInstanceOf[CancellationException])
    assert(!inner.isOpened)

  dir.test("a readString future left pending at the end of the scope is cancelled"): d =>
    val p = d.resolve("big-pending.txt")
    Files.writeString(p, TestFiles.text(40 * 1024 * 1024))
    val f = File(p.toString).open()
    val pending = Async.blocking(f.readString(40 * 1024 * 1024))
    assert(pending.poll().exists(_.failed.get.isInstanceOf[CancellationException]), pending)
    assert(!f.isOpened)
