package weft.io

import java.nio.ByteBuffer
import java.nio.channels.{
  ClosedChannelException,
  NonReadableChannelException,
  NonWritableChannelException
}
import java.nio.charset.StandardCharsets
import java.nio.file.{
  FileSystemException,
  Files,
  NoSuchFileException,
  Path,
  StandardOpenOption as O
}
import java.util.concurrent.CancellationException
import scala.util.{Failure, Success}
import weft.{Async, Future, await}
import weft.testing.OpenFds

/** `File` and `PIOHelper.withFile` on real files in a temporary directory. */
class FileSuite extends munit.FunSuite, weft.testing.Deadlined:

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

  /** The failure of `r`, checked to be a `T` whose message names `path` and `mode`. */
  private def wrongMode[T <: Throwable](r: scala.util.Try[?], path: Path, mode: String)(using
      ct: scala.reflect.ClassTag[T]
  ): Unit =
    val e = r.failed.get
    assert(ct.runtimeClass.isInstance(e), s"expected ${ct.runtimeClass.getSimpleName}, got $e")
    assert(e.getMessage != null, s"$e has no message")
    assert(e.getMessage.contains(path.toString), e.getMessage)
    assert(e.getMessage.contains(mode), e.getMessage)

  dir.test("writing a file opened for reading, or the reverse, fails naming path and mode"): d =>
    val p = d.resolve("mode.txt")
    Files.writeString(p, "abc")
    val big = TestFiles.text(File.InPlaceLimit + 1) // run on its own thread
    Async.blocking:
      PIOHelper.withFile(p.toString, O.READ): f =>
        wrongMode[NonWritableChannelException](f.writeString("x").result, p, "READ")
        wrongMode[NonWritableChannelException](f.writeString(big).result, p, "READ")
        wrongMode[NonWritableChannelException](f.write(ByteBuffer.allocate(1), 0).result, p, "READ")
        assertEquals(f.readString(3).await, "abc", "the file is still usable")
      PIOHelper.withFile(p.toString, O.WRITE): f =>
        wrongMode[NonReadableChannelException](f.readString(1).result, p, "WRITE")
        wrongMode[NonReadableChannelException](f.readString(big.length).result, p, "WRITE")
        wrongMode[NonReadableChannelException](f.read(ByteBuffer.allocate(1)).result, p, "WRITE")
        assertEquals(f.writeString("xyz").await, 3, "the file is still usable")

  /** Reads the whole of `p` by `readString(size)` calls (at most `limit`), concatenated. */
  private def readInPieces(p: Path, size: Int, cs: java.nio.charset.Charset, limit: Int = 20_000)(
      using Async
  ): String =
    PIOHelper.withFile(p.toString): f =>
      val sb = StringBuilder()
      var calls = 0
      var more = true
      while more do
        val s = f.readString(size, cs).await
        calls += 1
        assert(calls <= limit, s"readString($size) never reached the end")
        if s.isEmpty then more = false else sb.append(s)
      sb.toString

  // 1-, 2-, 3- and 4-byte characters in turn: every piece size splits some of them.
  dir.test("readString in pieces keeps a character split between reads for the next read"): d =>
    val text = Iterator.continually(Seq("a", "é", "€", "😀")).flatten.take(1100).mkString
    val p = d.resolve("split.txt")
    Files.writeString(p, text, StandardCharsets.UTF_8)
    val utf16 = d.resolve("split16.txt")
    Files.writeString(utf16, text, StandardCharsets.UTF_16BE)
    val cut = d.resolve("cut.txt") // ends in the first two bytes of a three-byte character
    Files.write(cut, "a€".getBytes(StandardCharsets.UTF_8).dropRight(1))
    Async.blocking:
      for size <- Seq(1, 2, 3, 5, 7, 64) do
        assertEquals(readInPieces(p, size, StandardCharsets.UTF_8), text, s"UTF-8, size $size")
      for size <- Seq(1, 3, 7) do
        assertEquals(readInPieces(utf16, size, StandardCharsets.UTF_16BE), text, s"UTF-16, $size")
      val whole = String(Files.readAllBytes(cut), StandardCharsets.UTF_8)
      for size <- Seq(1, 2, 3) do
        assertEquals(readInPieces(cut, size, StandardCharsets.UTF_8), whole, s"cut, size $size")

  dir.test("IO error paths of files leak no descriptor (fd count)"): d =>
    val missing = d.resolve("missing.txt").toString
    val p = d.resolve("fd.txt")
    Files.writeString(p, "abc")
    OpenFds.assertNoGrowth("opening a missing file"):
      intercept[NoSuchFileException](File(missing).open())
    OpenFds.assertNoGrowth("opening a directory for writing"):
      intercept[FileSystemException](File(d.toString).open(O.WRITE))
    OpenFds.assertNoGrowth("opening a file that is already open"):
      PIOHelper.withFile(p.toString)(f => intercept[IllegalStateException](f.open()))
    Async.blocking:
      OpenFds.assertNoGrowth("reading a write-only file"):
        PIOHelper.withFile(p.toString, O.WRITE): f =>
          assert(f.readString(1).result.failed.get.isInstanceOf[NonReadableChannelException])
      OpenFds.assertNoGrowth("writing a read-only file"):
        PIOHelper.withFile(p.toString, O.READ): f =>
          assert(f.writeString("x").result.failed.get.isInstanceOf[NonWritableChannelException])
      OpenFds.assertNoGrowth("reading a directory"):
        PIOHelper.withFile(d.toString): f =>
          assert(f.readString(1).result.isFailure)
      val big = d.resolve("fd-big.txt")
      Files.writeString(big, TestFiles.text(File.InPlaceLimit * 4))
      OpenFds.assertNoGrowth("a read cancelled in flight"):
        val f = File(big.toString).open()
        val r = f.readString(File.InPlaceLimit * 4) // on its own thread
        r.cancel()
        r.result
        f.close()
      OpenFds.assertNoGrowth("operations on a closed file"):
        val f = File(p.toString).open()
        f.close()
        assert(f.readString(1).result.failed.get.isInstanceOf[ClosedChannelException])

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
