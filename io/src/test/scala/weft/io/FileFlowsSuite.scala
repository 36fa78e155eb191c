package weft.io

import java.io.IOException
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.{ISO_8859_1, UTF_8}
import java.nio.file.{Files, NoSuchFileException, Path}
import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger}
import scala.jdk.CollectionConverters.*
import weft.*
import weft.flow.Flow
import weft.testing.Waits

/**
 * `File.lines`, `File.writeLines` and `File.writeChunks`: the lines and bytes, the file opened by
 * each run and closed however the run ends (counted in `/proc/self/fd`), bad arguments.
 */
class FileFlowsSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val dir = FunFixture[Path](
    setup = _ => Files.createTempDirectory("weft-file-flows"),
    teardown = d => TestFiles.deleteTree(d)
  )

  private def write(p: Path, s: String): String =
    Files.writeString(p, s, UTF_8)
    p.toString

  /** How many descriptors of this process are open on `path` (Linux's `/proc/self/fd`). */
  private def openOn(path: String): Int =
    assume(Files.isDirectory(Path.of("/proc/self/fd")), "no /proc/self/fd here")
    val target = Path.of(path).toRealPath()
    val fds = Files.list(Path.of("/proc/self/fd"))
    try
      fds.iterator.asScala.count: fd =>
        try Files.readSymbolicLink(fd) == target
        catch case _: IOException => false // closed meanwhile, or not a link
    finally fds.close()

  dir.test("lines: ended by \\n or \\r\\n, the last one without an end, none in an empty file"):
    d =>
      val p = write(d.resolve("a.txt"), "one\ntwo\r\n\nthree")
      val empty = write(d.resolve("e.txt"), "")
      val ended = write(d.resolve("n.txt"), "x\n")
      Async.blocking:
        assertEquals(File.lines(p).runToList(), List("one", "two", "", "three"))
        assertEquals(File.lines(empty).runToList(), Nil)
        assertEquals(File.lines(ended).runToList(), List("x"))

  dir.test("lines: lines and characters split between pieces come out whole"): d =>
    // A "\r\n" straddles the first piece's end, a two-byte character the second's, and one line
    // is longer than a piece.
    val first = "a" * (File.InPlaceLimit - 1) + "\r\n"
    val second = "é" * (File.InPlaceLimit / 2) + "y\n"
    val long = "L" * (3 * File.InPlaceLimit)
    val p = write(d.resolve("big.txt"), first + second + long + "\nend")
    val expected = List("a" * (File.InPlaceLimit - 1), second.dropRight(1), long, "end")
    Async.blocking:
      assertEquals(File.lines(p).runToList(), expected)

  dir.test("lines: another charset"): d =>
    val p = d.resolve("latin.txt")
    Files.write(p, "café\nnaïve\n".getBytes(ISO_8859_1))
    Async.blocking:
      assertEquals(File.lines(p.toString, ISO_8859_1).runToList(), List("café", "naïve"))

  dir.test("lines: cold, the file opened by each run, not by the call"): d =>
    val p = d.resolve("later.txt").toString
    val flow = File.lines(p) // the file does not exist yet: nothing happens
    Async.blocking:
      intercept[NoSuchFileException](flow.runToList())
      write(Path.of(p), "1\n2\n")
      assertEquals(flow.runToList(), List("1", "2"))
      write(Path.of(p), "3\n")
      assertEquals(flow.runToList(), List("3"))
      assertEquals(openOn(p), 0)

  dir.test("lines: open while the run reads, closed after a take downstream"): d =>
    val p = write(d.resolve("t.txt"), (1 to 1000).mkString("\n"))
    var openDuring = -1
    val firstTwo = Async.blocking:
      File.lines(p).tap(_ => openDuring = openOn(p)).take(2).runToList()
    assertEquals(firstTwo, List("1", "2"))
    assertEquals(openDuring, 1)
    assertEquals(openOn(p), 0, "the file is still open after the run")

  dir.test("lines: a failure downstream is thrown as it is, and closes the file"): d =>
    val p = write(d.resolve("f.txt"), "1\n2\nboom\n4\n")
    val boom = IllegalStateException("boom")
    val seen = Async.blocking:
      try
        File.lines(p).map(l => if l == "boom" then throw boom else l).runToList()
        None
      catch case e: Throwable => Some(e)
    assert(seen.exists(_ eq boom), seen)
    assertEquals(openOn(p), 0)

  dir.test("lines: a run cancelled while its consumer waits closes the file"): d =>
    val p = write(d.resolve("c.txt"), "1\n2\n3\n")
    val started = CountDownLatch(1)
    @volatile var fiber: Thread | Null = null
    Async.blocking:
      val run = Future:
        fiber = Thread.currentThread()
        File.lines(p).runForeach: _ =>
          started.countDown()
          sleep(3_600_000) // until cancelled
      Waits.latch(started, "the first line")
      assertEquals(openOn(p), 1)
      run.cancel()
      assert(run.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
    assertEquals(openOn(p), 0)
    assert(!fiber.nn.isAlive, "the run's fiber outlived its scope")

  dir.test("lines: a slow consumer bounds what is read from a pipe"): d =>
    // The writer writes 4 MiB of lines into a FIFO while the consumer holds its first line: a
    // run that reads at most a piece ahead leaves the writer blocked after the pipe's buffer
    // and one piece, whatever the machine's speed.
    val fifo = d.resolve("pipe")
    assume(TestFiles.mkfifo(fifo), "no mkfifo here")
    val line = "p" * 99 + "\n"
    val total = 4 * 1024 * 1024 / line.length
    val written = java.util.concurrent.atomic.AtomicLong()
    val started = CountDownLatch(1)
    val release = CountDownLatch(1)
    @volatile var stuckAt = -1L
    val writer = Thread.ofPlatform().start: () =>
      val out = java.io.FileOutputStream(fifo.toFile)
      try
        val bytes = line.getBytes(UTF_8)
        for _ <- 0 until total do
          out.write(bytes)
          written.addAndGet(bytes.length)
      finally out.close()
    val checker = Thread.ofPlatform().start: () =>
      Waits.latch(started, "the first line")
      Thread.sleep(300) // time for a writer that is not held back to run far ahead
      stuckAt = written.get
      release.countDown()
    val lines = Async.blocking:
      File.lines(fifo.toString).runFold(0): (n, _) =>
        if n == 0 then
          started.countDown()
          Waits.latch(release, "the checker")
        n + 1
    Waits.join(writer, "the writer")
    Waits.join(checker, "the checker")
    assertEquals(lines, total)
    assert(stuckAt >= 0 && stuckAt < 512 * 1024, s"$stuckAt bytes written while the consumer held")

  dir.test("lines: a fused run that never waits stops at a cancellation, failing with it"): d =>
    // The consumer never waits, so only the source's check between pieces sees the
    // cancellation; without it the next read, interrupted, would fail the run with a
    // ClosedByInterruptException in place of the cancellation.
    val line = "x" * 99
    val total = 20 * File.InPlaceLimit / 100
    val p = write(d.resolve("long.txt"), (line + "\n") * total)
    val seen = AtomicInteger()
    val cancelled = AtomicBoolean(false)
    val started = CountDownLatch(1)
    @volatile var thrown: Throwable | Null = null
    Async.blocking:
      val run = Future:
        try
          File.lines(p).runForeach: _ =>
            if seen.incrementAndGet() == 1 then
              started.countDown()
              while !cancelled.get do Thread.onSpinWait()
        catch
          case e: Throwable =>
            thrown = e
            throw e
      Waits.latch(started, "the first line")
      run.cancel()
      cancelled.set(true)
      assert(run.result.isFailure)
    assert(seen.get < total, s"${seen.get} of $total lines read after the cancellation")
    assert(thrown.isInstanceOf[CancellationException], s"the run failed with $thrown")
    assertEquals(openOn(p), 0)

  dir.test("writeLines: one line end each, truncates or appends, counts the lines"): d =>
    val p = d.resolve("out.txt").toString
    Async.blocking:
      assertEquals(File.writeLines(p, Flow("old", "lines", "here")), 3L)
      assertEquals(File.writeLines(p, Flow.range(0, 3).map(i => s"line $i")), 3L)
      assertEquals(Files.readString(Path.of(p)), "line 0\nline 1\nline 2\n")
      assertEquals(File.writeLines(p, Flow("more"), append = true), 1L)
      assertEquals(Files.readString(Path.of(p)), "line 0\nline 1\nline 2\nmore\n")
      assertEquals(File.writeLines(p, Flow.empty[String]), 0L)
      assertEquals(Files.readString(Path.of(p)), "")
    assertEquals(openOn(p), 0)

  dir.test("writeLines then lines: many pieces round-trip"): d =>
    val p = d.resolve("round.txt").toString
    val lines = (0 until 50_000).map(i => s"$i;é;${"z" * (i % 17)}")
    Async.blocking:
      assertEquals(File.writeLines(p, Flow.fromIterable(lines)), 50_000L)
      assertEquals(File.lines(p).runToList(), lines.toList)

  dir.test("writeLines: a failing flow is thrown as it is, and closes the file"): d =>
    val p = d.resolve("failed.txt").toString
    val boom = IOException("upstream")
    val seen = Async.blocking:
      try
        File.writeLines(p, Flow("a", "b").concat(Flow.failed(boom)))
        None
      catch case e: Throwable => Some(e)
    assert(seen.exists(_ eq boom), seen)
    assertEquals(openOn(p), 0)

  dir.test("writeChunks: every buffer whole, in order, counts the bytes"): d =>
    val p = d.resolve("bytes.bin").toString
    val chunks = (0 until 40).map(i => TestFiles.text(1000 + 997 * i))
    Async.blocking:
      val n = File.writeChunks(p, Flow.fromIterable(chunks).map(s => ByteBuffer.wrap(s.getBytes)))
      assertEquals(n, chunks.map(_.length.toLong).sum)
      File.writeChunks(p, Flow(ByteBuffer.wrap("!".getBytes)), append = true): Unit
    assertEquals(Files.readString(Path.of(p)), chunks.mkString + "!")
    assertEquals(openOn(p), 0)

  test("bad arguments: typed errors naming the operator and the parameter, at the call"):
    def message(body: => Any) = intercept[IllegalArgumentException](body).getMessage
    assert(message(File.lines("")).contains("File.lines: path"))
    assert(message(File.lines("x", null)).contains("File.lines: charset"))
    Async.blocking:
      assert(message(File.writeLines("", Flow("a"))).contains("File.writeLines: path"))
      assert(message(File.writeLines("x", null)).contains("File.writeLines: lines"))
      assert(message(File.writeChunks("", Flow.empty)).contains("File.writeChunks: path"))
      assert(message(File.writeChunks("x", null)).contains("File.writeChunks: chunks"))

/** The same, with `Async.blocking` entered from a virtual thread. */
class FileFlowsOnVirtualThreadSuite extends FileFlowsSuite, weft.OnVirtualThread
