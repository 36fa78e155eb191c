package weft.io

import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.nio.charset.{Charset, StandardCharsets}
import java.nio.file.{Files, Path, StandardOpenOption}
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
 * [[File.InPlaceLimit]] bytes, or any transfer on a file that is not a regular file (a pipe, a
 * device: those may wait indefinitely), runs on its own virtual thread and the call returns at
 * once (see [[IOTask]]). A smaller transfer on a regular file runs in place, on the caller, and
 * returns a completed future: it takes microseconds, less than a handoff to another thread
 * would cost, and a regular file never makes it wait indefinitely (POSIX `poll` reports regular
 * files always ready for the same reason). Either way the result is the future's.
 *
 * Relative operations ([[read]], [[write]], [[readString]],
 * [[writeString]]) use and advance the file position, so start one only after the previous one
 * completed; positional ones (`read(buffer, position)`, `write(buffer, position)`) leave the
 * position alone and may run concurrently.
 *
 * Errors: opening a missing file throws `NoSuchFileException` (the path is its message); an
 * operation on a file that is not open fails with `ClosedChannelException` naming the path.
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

  // Whether the open file is a regular file (so small transfers run in place); set by `open`.
  @volatile private var regular = false

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
    val p = Path.of(path)
    val c = FileChannel.open(p, options*)
    regular = Files.isRegularFile(p)
    val previous = channelRef.getAndSet(c)
    if previous != null then previous.close()
    this

  /** Closes the file; idempotent. An operation in flight fails with `ClosedChannelException`. */
  def close(): Unit =
    val c = channelRef.getAndSet(null)
    if c != null then c.close()

  /**
   * After a cancellation: closes at once a regular file (closing waits only for a transfer in
   * progress, which a regular file keeps short); closes any other file on a separate virtual
   * thread, because the JDK cannot interrupt a transfer blocked on a pipe or device from a
   * virtual thread, and the close waits for it.
   */
  override private[io] def closeOnCancel(): Unit =
    if regular then close() else AsyncSupport.default.start(() => close())

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
   * a regular file, then into the string ([[FileTransfer.readString]]).
   * @throws IllegalArgumentException
   *   if `size` is negative
   */
  def readString(size: Int, charset: Charset = StandardCharsets.UTF_8)(using
      Async
  ): Future[String] =
    require(size >= 0, s"readString size must be >= 0, got $size")
    withChannel(c => run(size)(FileTransfer.readString(c, size, charset, regular)))

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
    if regular && bytes <= File.InPlaceLimit then IOTask.inPlace(this)(body)
    else IOTask.start(this)(body)

  private def checkDestination(buffer: ByteBuffer): Unit =
    require(!buffer.isReadOnly, s"cannot read $describe into a read-only buffer")

  private def checkPosition(position: Long): Unit =
    require(position >= 0, s"file position must be >= 0, got $position")

/** Constants of [[File]]. */
object File:
  /**
   * Transfers of at most this many bytes (64 KiB) on a regular file run in place on the caller
   * (see the class comment).
   */
  val InPlaceLimit: Int = 64 * 1024
