package weft.bench.io

import java.nio.ByteBuffer
import java.nio.channels.{AsynchronousFileChannel, CompletionHandler}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, StandardOpenOption}
import weft.Future

/**
 * Shared pieces of the IO benchmarks: where the files live, how a contender runs on a virtual
 * thread, and the AsynchronousFileChannel design that ADR 0002 compares with weft's.
 */
object IoBenchSupport:

  /** A fresh directory on a tmpfs (`/dev/shm`) when there is one, else the system temp dir. */
  def tempDir(): Path =
    val shm = Path.of("/dev/shm")
    if Files.isDirectory(shm) && Files.isWritable(shm) then
      Files.createTempDirectory(shm, "weft-io-bench")
    else Files.createTempDirectory("weft-io-bench")

  /** Deletes `dir` and the files in it. */
  def deleteDir(dir: Path): Unit =
    if dir != null && Files.exists(dir) then
      val s = Files.list(dir)
      try s.forEach(p => Files.deleteIfExists(p))
      finally s.close()
      Files.deleteIfExists(dir)

  /** ASCII text of `n` bytes. */
  def text(n: Int): String =
    val sb = java.lang.StringBuilder(n)
    var i = 0
    while i < n do
      sb.append(('a' + i % 26).toChar)
      i += 1
    sb.toString

  /**
   * Runs `body` on a new virtual thread and returns its value: the same one platform-to-virtual
   * handoff as `Async.blocking`, so contenders compare only their loops.
   */
  def onVirtualThread[T](body: => T): T =
    var result: Any = null
    var error: Throwable | Null = null
    val t = Thread.ofVirtual().start: () =>
      try result = body
      catch case e: Throwable => error = e
    t.join()
    if error != null then throw error.nn
    result.asInstanceOf[T]

  /**
   * The rejected design of ADR 0002: `AsynchronousFileChannel` completing a weft future through
   * `Future.withResolver` (the seed's implementation). Reads `size` bytes at position 0.
   */
  def asyncChannelReadString(path: Path, size: Int): Future[String] =
    val ch = AsynchronousFileChannel.open(path, StandardOpenOption.READ)
    val bb = ByteBuffer.allocate(size)
    Future.withResolver[String]: r =>
      ch.read(
        bb,
        0L,
        null,
        new CompletionHandler[Integer, Null]:
          def completed(n: Integer, a: Null): Unit =
            ch.close()
            r.resolve(String(bb.array, 0, bb.position(), StandardCharsets.UTF_8))
          def failed(e: Throwable, a: Null): Unit =
            ch.close()
            r.reject(e)
      )

  /** As [[asyncChannelReadString]], writing `s` (one write; fine for the benchmark's sizes). */
  def asyncChannelWriteString(path: Path, s: String): Future[Int] =
    val ch = AsynchronousFileChannel.open(
      path,
      StandardOpenOption.WRITE,
      StandardOpenOption.CREATE,
      StandardOpenOption.TRUNCATE_EXISTING
    )
    val bb = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8))
    Future.withResolver[Int]: r =>
      ch.write(
        bb,
        0L,
        null,
        new CompletionHandler[Integer, Null]:
          def completed(n: Integer, a: Null): Unit =
            ch.close()
            r.resolve(n)
          def failed(e: Throwable, a: Null): Unit =
            ch.close()
            r.reject(e)
      )
