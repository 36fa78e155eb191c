package weft.io

import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.charset.{Charset, StandardCharsets}
import java.nio.file.{Files, Path, StandardOpenOption as O}
import java.util.concurrent.CancellationException
import scala.concurrent.duration.*
import weft.{Async, await}

/** Large transfers through `File`, which go in chunks (`FileTransfer`): boundaries and text. */
class FileTransferSuite extends munit.FunSuite, weft.testing.Deadlined:

  import FileTransfer.{Chunk, TextChunk}

  // large transfers: above this suite's munit timeout
  override def testDeadlineSeconds: Int = 150

  override val munitTimeout: Duration = 120.seconds

  private val dir = FunFixture[Path](
    _ => Files.createTempDirectory("weft-io-transfer"),
    d => TestFiles.deleteTree(d)
  )

  /** `n` bytes that differ from their neighbours, so that a misplaced chunk is noticed. */
  private def bytes(n: Int): Array[Byte] = Array.tabulate(n)(i => (i * 31 + i / 251).toByte)

  private val sizes = Seq(Chunk - 1, Chunk, Chunk + 1, 2 * Chunk, 3 * Chunk + 17)

  dir.test("heap-buffer reads and writes at and around the chunk boundaries"): d =>
    for n <- sizes do
      val p = d.resolve(s"b$n.bin")
      val data = bytes(n)
      Async.blocking:
        PIOHelper.withFile(p.toString, O.CREATE, O.WRITE, O.TRUNCATE_EXISTING): f =>
          val src = ByteBuffer.wrap(data)
          assertEquals(f.write(src).await, n)
          assertEquals(src.position(), n)
        PIOHelper.withFile(p.toString): f =>
          val dst = ByteBuffer.allocate(n + 10) // more room than the file: a short read
          assertEquals(f.read(dst).await, n)
          assertEquals(dst.position(), n)
          assertEquals(f.read(dst).await, -1)
          assert(java.util.Arrays.equals(dst.array.take(n), data), s"content differs at size $n")
      assert(java.util.Arrays.equals(Files.readAllBytes(p), data), s"file differs at size $n")

  dir.test("a read into a heap buffer smaller than the file fills it exactly"): d =>
    val p = d.resolve("partial.bin")
    val data = bytes(3 * Chunk)
    Files.write(p, data)
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        val first = ByteBuffer.allocate(Chunk + 5)
        assertEquals(f.read(first).await, Chunk + 5)
        val rest = ByteBuffer.allocate(3 * Chunk)
        assertEquals(f.read(rest).await, 2 * Chunk - 5)
        val all = first.array ++ rest.array.take(2 * Chunk - 5)
        assert(java.util.Arrays.equals(all, data))

  dir.test("positional chunked reads and writes use the position, not the file's"): d =>
    val p = d.resolve("positional.bin")
    val data = bytes(2 * Chunk + 3)
    Async.blocking:
      PIOHelper.withFile(p.toString, O.CREATE, O.READ, O.WRITE): f =>
        assertEquals(f.write(ByteBuffer.wrap(data), 100).await, data.length)
        val dst = ByteBuffer.allocate(data.length)
        assertEquals(f.read(dst, 100).await, data.length)
        assert(java.util.Arrays.equals(dst.array, data))
        assertEquals(f.read(ByteBuffer.allocate(10), 100L + data.length).await, -1)
        val head = ByteBuffer.allocate(101) // the file position is still 0: 100 zeros first
        assertEquals(f.read(head).await, 101)
        assertEquals(head.get(99), 0.toByte)
        assertEquals(head.get(100), data(0))
    assertEquals(Files.size(p), 100L + data.length)

  dir.test("direct buffers larger than a chunk are transferred whole"): d =>
    val p = d.resolve("direct.bin")
    val data = bytes(2 * Chunk + 1)
    Async.blocking:
      PIOHelper.withFile(p.toString, O.CREATE, O.READ, O.WRITE): f =>
        val src = ByteBuffer.allocateDirect(data.length).put(data).flip()
        assertEquals(f.write(src).await, data.length)
        val dst = ByteBuffer.allocateDirect(data.length)
        assertEquals(f.read(dst, 0).await, data.length)
        val back = new Array[Byte](data.length)
        dst.flip().get(back)
        assert(java.util.Arrays.equals(back, data))

  dir.test("readString sizes its array from the file: a huge size on a small file"): d =>
    val p = d.resolve("small.txt")
    Files.writeString(p, "just this")
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        assertEquals(f.readString(Int.MaxValue).await, "just this")
        assertEquals(f.readString(Int.MaxValue).await, "") // at the end of the file

  dir.test("readString from the middle of a large file, bounded by size or by the end"): d =>
    val p = d.resolve("middle.txt")
    val text = TestFiles.text(3 * Chunk + 11)
    Files.writeString(p, text)
    Async.blocking:
      PIOHelper.withFile(p.toString): f =>
        assertEquals(f.read(ByteBuffer.allocate(5)).await, 5)
        assertEquals(f.readString(2 * Chunk).await, text.substring(5, 5 + 2 * Chunk))
        assertEquals(f.readString(4 * Chunk).await, text.substring(5 + 2 * Chunk))

  test("readString on a pipe grows its array beyond the first chunk"):
    val d = Files.createTempDirectory("weft-io-fifo")
    try
      val fifo = d.resolve("fifo")
      assume(TestFiles.mkfifo(fifo), "mkfifo is not available here")
      val text = TestFiles.text(3 * Chunk + 7)
      // a platform thread: opening a FIFO blocks until the other end opens, pinning a carrier
      val writer = Thread(() =>
        Files.writeString(fifo, text); ()
      )
      writer.start()
      val read = Async.blocking(PIOHelper.withFile(fifo.toString)(_.readString(8 * Chunk).await))
      weft.testing.Waits.join(writer, "the FIFO's writer")
      assertEquals(read.length, text.length)
      assertEquals(read, text)
    finally TestFiles.deleteTree(d)

  /** Text with surrogate pairs straddling the piece boundaries, and lone surrogates. */
  private def awkwardText(): String =
    val sb = java.lang.StringBuilder()
    sb.append(TestFiles.text(TextChunk - 1)).append("\uD83D\uDE00") // pair across a boundary
    sb.append("żółw ").append(TestFiles.text(TextChunk)).append('\uD800') // lone high surrogate
    sb.append("x\uDC00y").append(TestFiles.text(TextChunk - 3)).append("\uD83D\uDE01")
    sb.append(TestFiles.text(100)).append('\uD801') // lone high surrogate at the very end
    sb.toString

  for cs <- Seq(StandardCharsets.UTF_8, StandardCharsets.UTF_16, StandardCharsets.ISO_8859_1) do
    dir.test(s"writeString of long text writes exactly String.getBytes ($cs)"): d =>
      val p = d.resolve(s"text-${cs.name}.txt")
      val s = awkwardText()
      assert(s.length > 3 * TextChunk)
      Async.blocking:
        val written =
          PIOHelper.withFile(p.toString, O.CREATE, O.WRITE)(_.writeString(s, cs).await)
        val expected = s.getBytes(cs)
        assertEquals(written, expected.length)
        assert(java.util.Arrays.equals(Files.readAllBytes(p), expected), s"bytes differ for $cs")

  dir.test("a 40 MB heap buffer round-trips through write and read"): d =>
    val p = d.resolve("big.bin")
    val data = bytes(40 * 1024 * 1024)
    Async.blocking:
      PIOHelper.withFile(p.toString, O.CREATE, O.READ, O.WRITE): f =>
        assertEquals(f.write(ByteBuffer.wrap(data)).await, data.length)
        val dst = ByteBuffer.allocate(data.length)
        assertEquals(f.read(dst, 0).await, data.length)
        assert(java.util.Arrays.equals(dst.array, data))

  dir.test("cancelling a 40 MB chunked write closes the file; the buffer counts what was written"):
    d =>
      val data = bytes(40 * 1024 * 1024)
      // Cancel as soon as the first chunk reaches the file. The write may still win the race on
      // a fast machine: try again (a bounded number of times) until a cancellation lands.
      var landed = false
      var attempt = 0
      while !landed && attempt < 20 do
        attempt += 1
        val p = d.resolve(s"cancel-write-$attempt.bin")
        val src = ByteBuffer.wrap(data)
        val f = File(p.toString).open(O.CREATE, O.WRITE)
        Async.blocking:
          val w = f.write(src)
          while Files.size(p) == 0 && w.poll().isEmpty do Thread.onSpinWait()
          w.cancel()
          landed = w.result.isFailure
          if landed then
            assert(w.result.failed.get.isInstanceOf[CancellationException], w.result)
            assert(!f.isOpened)
            val after = f.write(ByteBuffer.wrap(Array[Byte](1))).result
            assert(after.failed.get.isInstanceOf[ClosedChannelException], after)
          else f.close()
        // the scope joined the transfer's thread: every byte written is counted in the position
        assertEquals(Files.size(p), src.position().toLong)
      assert(landed, "no cancellation landed before the write completed in 20 attempts")
