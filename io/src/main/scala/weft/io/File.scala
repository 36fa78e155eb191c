package weft.io

import java.io.IOException
import java.nio.ByteBuffer
import java.nio.channels.{ClosedChannelException, FileChannel}
import java.nio.charset.{Charset, StandardCharsets}
import java.nio.file.{Path, StandardOpenOption}
import java.util.EnumSet
import java.util.concurrent.atomic.AtomicReference
import weft.{Async, Future}
import weft.runtime.AsyncSupport

/**
 * A file opened POSIX-style, whose reads and writes are futures (seed 002, `PosixLikeIO.File`).
 *
 * {{{
 * Async.blocking:
 *   val f = File("/tmp/x.txt").open(StandardOpenOption.READ)
 *   try f.readString(1024).await finally f.close()
 * }}}
 *
 * ==Where operations run==
 * Operations call a blocking `FileChannel` (ADR 0002). A transfer of more than
 * [[File.InPlaceLimit]] bytes, or any transfer on a stream (a file that cannot seek: a pipe, a
 * FIFO, a terminal; those may wait indefinitely), runs on its own virtual thread and the call
 * returns at once (see [[IOTask]]). A smaller transfer on a seekable file runs in place, on the
 * caller, and returns a completed future: it takes microseconds, less than a handoff to another
 * thread would cost, and a regular file never makes it wait indefinitely (POSIX `poll` reports
 * regular files always ready for the same reason). Either way the result is the future's.
 *
 * `open` tells the two kinds apart by seeking to the start, where the file already is: one
 * `lseek`, which fails on streams. It stands for `Files.isRegularFile`, a `stat` of the path
 * that cost a third of a 4-byte read or write (ADR 0002). Seekable files are regular files,
 * block devices and most character devices, which is the limitation: a seekable device whose
 * reads wait for events (`/dev/kmsg`, an input device) has its small transfers run in place,
 * where the caller waits for the event and a cancellation cannot stop it. (`/proc/kmsg` is such
 * a file that `stat` calls regular, so no cheap test is exact.)
 *
 * Relative operations ([[read]], [[write]], [[readString]],
 * [[writeString]]) use and advance the file position, so start one only after the previous one
 * completed; positional ones (`read(buffer, position)`, `write(buffer, position)`) leave the
 * position alone and may run concurrently.
 *
 * Errors: opening a missing file throws `NoSuchFileException` (the path is its message); opening
 * a directory for writing throws `FileSystemException` ("Is a directory"); a directory opened for
 * reading opens, and its reads fail with `IOException` naming the path. An operation on a file
 * that is not open fails with `ClosedChannelException` naming the path.
 *
 * Cancellation: cancelling an operation's future before it completes (so, one running on its
 * own thread) closes the file: [[isOpened]] becomes `false`, later operations fail with
 * `ClosedChannelException`, and how many bytes the cancelled operation transferred is
 * unspecified. Cancelling a completed future does nothing. Limitation: on a pipe or device the
 * JDK cannot stop a transfer blocked on a virtual thread (its close waits for the transfer), so
 * the close runs in the background and the operation's thread, which the scope joins, returns
 * only when the transfer does.
 *
 * @param path
 *   the file's path (not empty)
 */
final class File(val path: String) extends IOResource:
  require(path != null && path.nonEmpty, "File path must not be empty")

  private val channelRef = AtomicReference[FileChannel | Null](null)

  // Whether the open file can seek (so small transfers run in place); set by `open`.
  @volatile private var seekable = false

  private[io] def describe: String = s"file $path"

  /** Whether the file is open (opened, and neither closed nor closed by a cancellation). */
  def isOpened: Boolean =
    val c = channelRef.get()
    c != null && c.isOpen

  /**
   * Opens the file with `options` (none means `READ`), as `FileChannel.open` does.
   * @return
   *   this file
   * @throws java.nio.file.NoSuchFileException
   *   if the file does not exist and `CREATE` is not given
   * @throws IllegalStateException
   *   if the file is already open
   */
  def open(options: StandardOpenOption*): File =
    if isOpened then throw IllegalStateException(s"$describe is already open")
    val c = FileChannel.open(Path.of(path), File.optionSet(options))
    seekable =
      try File.canSeek(c)
      catch
        case e: Throwable =>
          c.close()
          throw IOErrors.withContext(e, describe)
    val previous = channelRef.getAndSet(c)
    if previous != null then previous.close()
    this

  /** Closes the file; idempotent. An operation in flight fails with `ClosedChannelException`. */
  def close(): Unit =
    val c = channelRef.getAndSet(null)
    if c != null then c.close()

  /**
   * After a cancellation: marks the file closed at once, then closes a seekable file's channel
   * at once too (closing waits only for a transfer in progress, which a regular file keeps
   * short) and a stream's on a separate virtual thread, because the JDK cannot interrupt a
   * transfer blocked on a pipe or device from a virtual thread, and the close waits for it.
   */
  override private[io] def closeOnCancel(): Unit =
    val c = channelRef.getAndSet(null)
    if c != null then
      if seekable then c.close() else AsyncSupport.default.start(() => c.close())

  /** The file's current size in bytes. */
  def size(): Long = channel().size()

  /**
   * Reads into `buffer` from the file position, as one POSIX `read` (it may read fewer bytes
   * than `buffer.remaining`: at the end of the file, or on a pipe with nothing more for now),
   * and advances the position. A large heap buffer is filled in chunks ([[FileTransfer]]).
   * @return
   *   a future of the number of bytes read, or `-1` at the end of the file
   */
  def read(buffer: ByteBuffer)(using Async): Future[Int] =
    checkDestination(buffer)
    withChannel(c => run(buffer.remaining)(FileTransfer.read(c, buffer, FileTransfer.Relative)))

  /** As [[read]], at `position` (the file position is not used nor changed). */
  def read(buffer: ByteBuffer, position: Long)(using Async): Future[Int] =
    checkDestination(buffer)
    checkPosition(position)
    withChannel(c => run(buffer.remaining)(FileTransfer.read(c, buffer, position)))

  /**
   * Reads up to `size` bytes (fewer only at the end of the file) from the file position and
   * decodes them with `charset`. The bytes go into a reused array no larger than what is left of
   * a seekable file, then into the string ([[FileTransfer.readString]]).
   * @throws IllegalArgumentException
   *   if `size` is negative
   */
  def readString(size: Int, charset: Charset = StandardCharsets.UTF_8)(using
      Async
  ): Future[String] =
    require(size >= 0, s"readString size must be >= 0, got $size")
    withChannel(c => run(size)(FileTransfer.readString(c, size, charset, seekable)))

  /**
   * Writes all of `buffer` at the file position (or at the end, if opened with `APPEND`).
   * @return
   *   a future of the number of bytes written
   */
  def write(buffer: ByteBuffer)(using Async): Future[Int] =
    withChannel(c => run(buffer.remaining)(FileTransfer.write(c, buffer, FileTransfer.Relative)))

  /** As [[write]], at `position` (the file position is not used nor changed). */
  def write(buffer: ByteBuffer, position: Long)(using Async): Future[Int] =
    checkPosition(position)
    withChannel(c => run(buffer.remaining)(FileTransfer.write(c, buffer, position)))

  /**
   * Encodes `s` with `charset` (what it cannot encode becomes the charset's replacement, as with
   * `String.getBytes`) and writes it all at the file position. A long string is encoded and
   * written piece by piece ([[FileTransfer.writeString]]).
   * @return
   *   a future of the number of bytes written
   */
  def writeString(s: String, charset: Charset = StandardCharsets.UTF_8)(using
      Async
  ): Future[Int] =
    withChannel(c => run(s.length)(FileTransfer.writeString(c, s, charset)))

  override def toString: String = s"File($path, ${if isOpened then "open" else "closed"})"

  private def channel(): FileChannel =
    val c = channelRef.get()
    if c == null then throw IOErrors.closed(describe)
    c

  private inline def withChannel[T](inline op: FileChannel => Future[T]): Future[T] =
    val c = channelRef.get()
    if c == null then Future.failed(IOErrors.closed(describe)) else op(c)

  /** Runs a transfer of about `bytes` bytes in place or on its own thread (class comment). */
  private inline def run[T](bytes: Long)(inline body: T)(using Async): Future[T] =
    if seekable && bytes <= File.InPlaceLimit then IOTask.inPlace(this)(body)
    else IOTask.start(this)(body)

  private def checkDestination(buffer: ByteBuffer): Unit =
    require(!buffer.isReadOnly, s"cannot read $describe into a read-only buffer")

  private def checkPosition(position: Long): Unit =
    require(position >= 0, s"file position must be >= 0, got $position")

/** Constants of [[File]]. */
object File:
  /**
   * Transfers of at most this many bytes (64 KiB) on a seekable file run in place on the caller
   * (see the class comment).
   */
  val InPlaceLimit: Int = 64 * 1024

  /**
   * `options` as the set `FileChannel.open` takes: an `EnumSet` (one word of bits), where the
   * varargs overload of `open` builds a `HashSet`.
   */
  private def optionSet(options: Seq[StandardOpenOption]): EnumSet[StandardOpenOption] =
    val set = EnumSet.noneOf(classOf[StandardOpenOption])
    val it = options.iterator
    while it.hasNext do set.add(it.next())
    set

  /**
   * Whether the freshly opened `c` can seek: it seeks to the start, where `c` already is (one
   * `lseek`; streams fail it with `ESPIPE`). `position(0)` rather than `position()`, which on a
   * channel opened with `APPEND` asks for the size instead of seeking.
   * @throws java.nio.channels.ClosedChannelException
   *   if the caller was interrupted (the JDK then closes `c`)
   */
  private def canSeek(c: FileChannel): Boolean =
    try
      c.position(0L)
      true
    catch
      case e: ClosedChannelException => throw e
      case _: IOException            => false
