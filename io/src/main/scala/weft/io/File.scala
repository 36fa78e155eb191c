package weft.io

import java.io.IOException
import java.nio.ByteBuffer
import java.nio.channels.{
  ClosedChannelException,
  FileChannel,
  NonReadableChannelException,
  NonWritableChannelException
}
import java.nio.charset.{Charset, StandardCharsets}
import java.nio.file.{Path, StandardOpenOption}
import java.util.concurrent.atomic.AtomicReference
import weft.{Async, Future}
import weft.runtime.AsyncSupport

/**
 * A file opened POSIX-style, whose reads and writes are futures.
 *
 * {{{
 * Async.blocking:
 *   val f = File("/tmp/x.txt").open(StandardOpenOption.READ)
 *   try f.readString(1024).await finally f.close()
 * }}}
 *
 * ==Where operations run==
 * A transfer of more than [[File.InPlaceLimit]] bytes, or any transfer on a stream (a file that
 * cannot seek: a pipe, a FIFO, a terminal; those may wait indefinitely), runs on its own virtual
 * thread and the call returns at once. A smaller transfer on a seekable file runs on the caller
 * and returns a completed future: it takes microseconds, less than a hand-off to another thread
 * would cost. Either way the result is the future's. Limitation: a seekable device whose reads
 * wait for events (`/dev/kmsg`, an input device) has its small transfers run on the caller,
 * where the caller waits for the event and a cancellation cannot stop it.
 *
 * Relative operations ([[read]], [[write]], [[readString]], [[writeString]]) use and advance
 * the file position, which starts at 0 when the file is opened, so start one only after the
 * previous one completed; positional ones (`read(buffer, position)`, `write(buffer, position)`)
 * leave the position alone and may run concurrently.
 *
 * Errors: opening a missing file throws `NoSuchFileException` (the path is its message); opening
 * a directory for writing throws `FileSystemException` ("Is a directory"); a directory opened for
 * reading opens, and its reads fail with `IOException` naming the path. An operation on a file
 * that is not open fails with `ClosedChannelException` naming the path. Writing a file opened
 * without `WRITE` or `APPEND` fails with `NonWritableChannelException`, reading one opened
 * without `READ` with `NonReadableChannelException`; both name the path and the options the
 * file was opened with (`file /tmp/x.txt (opened with READ): not open for writing`).
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
  // Where operations run. Operations call a blocking `FileChannel` (ADR 0002); a transfer that
  // may wait runs on its own virtual thread (`IOTask`). POSIX `poll` reports regular files
  // always ready, for the reason small transfers run in place here: a regular file never makes
  // a transfer wait indefinitely. The first transfer tells seekable files and streams apart at
  // no extra cost (`FileKind`): on a seekable file `File` keeps the file position itself and
  // transfers with positional calls, which streams refuse at once. Seekable files are regular
  // files, block devices and most character devices, hence the limitation of the class comment
  // (`/proc/kmsg` is such a file that `stat` calls regular, so no cheap test is exact). Large
  // heap buffers are transferred in chunks, and strings encoded and decoded piece by piece, by
  // `FileTransfer` (why: its header comment).

  require(path != null && path.nonEmpty, "File path must not be empty")

  private val channelRef = AtomicReference[FileChannel | Null](null)

  // What the open file is (a FileKind constant); set by `open` and by the first transfer.
  @volatile private var kind = FileKind.Unknown

  // The position of relative transfers while `kind` is Unknown or Positional (FileKind).
  @volatile private[io] var cursor = 0L

  // What `readString` keeps between calls: the bytes of a split character (TextCarry).
  private[io] val text = TextCarry()

  // The options the file was opened with, for the messages of errors that depend on them.
  @volatile private var mode = ""

  private[io] def describe: String = s"file $path"

  /** Whether the file is open (opened, and neither closed nor closed by a cancellation). */
  def isOpened: Boolean =
    val c = channelRef.get()
    c != null && c.isOpen

  /**
   * Opens the file with `options` (none means `READ`), as `FileChannel.open` does.
   * @return
   *   this file, for `val f = File(path).open(...)`; where you keep the file in a `val` already,
   *   `f.open(...): Unit` says the result is ignored (and keeps `-Wnonunit-statement` quiet)
   * @throws java.nio.file.NoSuchFileException
   *   if the file does not exist and `CREATE` is not given
   * @throws java.lang.IllegalStateException
   *   if the file is already open
   */
  def open(options: StandardOpenOption*): File =
    if isOpened then throw IllegalStateException(s"$describe is already open")
    val set = FileKind.optionSet(options)
    val c = FileChannel.open(Path.of(path), set)
    try kind = FileKind.afterOpen(c, set)
    catch
      case e: Throwable =>
        c.close()
        throw e
    cursor = 0L
    text.reset()
    mode = if options.isEmpty then "READ" else options.mkString(", ")
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
   * short) and any other on a separate virtual thread, because the JDK cannot interrupt a
   * transfer blocked on a pipe or device from a virtual thread, and the close waits for it.
   */
  override private[io] def closeOnCancel(): Unit =
    val c = channelRef.getAndSet(null)
    if c != null then
      val k = kind
      if k == FileKind.Positional || k == FileKind.Appending then c.close()
      else AsyncSupport.default.start(() => c.close())

  /**
   * `e` with this file in its message; a transfer the open mode forbids also names the mode
   * (`NonWritableChannelException`, `NonReadableChannelException`, see the class comment).
   */
  override private[io] def failure(e: Throwable): Throwable = e match
    case _: (NonWritableChannelException | NonReadableChannelException) =>
      IOErrors.withContext(e, s"$describe (opened with $mode)")
    case _ => IOErrors.withContext(e, describe)

  /** The file's current size in bytes. */
  def size(): Long = channel().size()

  /**
   * Reads into `buffer` from the file position, as one POSIX `read` (it may read fewer bytes
   * than `buffer.remaining`: at the end of the file, or on a pipe with nothing more for now),
   * and advances the position.
   * @return
   *   a future of the number of bytes read, or `-1` at the end of the file
   */
  def read(buffer: ByteBuffer)(using Async): Future[Int] =
    checkDestination(buffer)
    withChannel(c => relative(c, buffer.remaining)(p => moved(p, FileTransfer.read(c, buffer, p))))

  /** As [[read]], at `position` (the file position is not used nor changed). */
  def read(buffer: ByteBuffer, position: Long)(using Async): Future[Int] =
    checkDestination(buffer)
    checkPosition(position)
    withChannel(c => positional(buffer.remaining)(FileTransfer.read(c, buffer, position)))

  /**
   * Reads up to `size` bytes (fewer only at the end of the file) from the file position and
   * decodes them with `charset`. A character split by the `size` limit is not lost: its bytes
   * are kept and decoded at the start of the next `readString`, so reading a file in pieces
   * gives the same text as reading it whole. An empty string means the end of the file: a piece
   * that would hold only part of a character reads on until it is complete (a few bytes past
   * `size`, for `size` smaller than a character).
   * @throws IllegalArgumentException
   *   if `size` is negative
   */
  def readString(size: Int, charset: Charset = StandardCharsets.UTF_8)(using
      Async
  ): Future[String] =
    require(size >= 0, s"readString size must be >= 0, got $size")
    withChannel(c => relative(c, size)(p => FileTransfer.readString(c, size, charset, p, this)))

  /**
   * Writes all of `buffer` at the file position (or at the end, if opened with `APPEND`).
   * @return
   *   a future of the number of bytes written
   */
  def write(buffer: ByteBuffer)(using Async): Future[Int] =
    withChannel(c => relative(c, buffer.remaining)(p => moved(p, FileTransfer.write(c, buffer, p))))

  /** As [[write]], at `position` (the file position is not used nor changed). */
  def write(buffer: ByteBuffer, position: Long)(using Async): Future[Int] =
    checkPosition(position)
    withChannel(c => positional(buffer.remaining)(FileTransfer.write(c, buffer, position)))

  /**
   * Encodes `s` with `charset` (what it cannot encode becomes the charset's replacement, as with
   * `String.getBytes`) and writes it all at the file position. A long string is encoded and
   * written piece by piece, so it needs no second copy of itself in bytes.
   * @return
   *   a future of the number of bytes written
   */
  def writeString(s: String, charset: Charset = StandardCharsets.UTF_8)(using
      Async
  ): Future[Int] =
    withChannel(c =>
      relative(c, s.length)(p => moved(p, FileTransfer.writeString(c, s, charset, p)))
    )

  override def toString: String = s"File($path, ${if isOpened then "open" else "closed"})"

  private def channel(): FileChannel =
    val c = channelRef.get()
    if c == null then throw IOErrors.closed(describe)
    c

  private inline def withChannel[T](inline op: FileChannel => Future[T]): Future[T] =
    val c = channelRef.get()
    if c == null then Future.failed(IOErrors.closed(describe)) else op(c)

  /**
   * Runs a relative transfer of about `bytes` bytes: `op(p)` transfers at position `p`, or
   * through the channel's own position when `p` is [[FileTransfer.Relative]] ([[FileKind]]).
   */
  private def relative[T](c: FileChannel, bytes: Long)(op: Long => T)(using Async): Future[T] =
    var k = kind
    if k == FileKind.Unknown && bytes > File.InPlaceLimit then
      k = if FileKind.isStream(c) then FileKind.Stream else FileKind.Positional
      kind = k
    if k == FileKind.Unknown then probing(c)(op(cursor))(op(FileTransfer.Relative))
    else if k == FileKind.Positional then run(true, bytes)(op(cursor))
    else run(k == FileKind.Appending, bytes)(op(FileTransfer.Relative))

  /**
   * The first small relative transfer: `atCursor` in place; if that fails because the file is a
   * stream (which refuses positional transfers at once, moving nothing), `streamed` on its own
   * thread. See [[FileKind]].
   */
  private inline def probing[T](c: FileChannel)(inline atCursor: T)(inline streamed: => T)(using
      Async
  ): Future[T] =
    try
      val v = atCursor
      kind = FileKind.Positional
      Future.successful(v)
    catch
      case e: IOException if !e.isInstanceOf[ClosedChannelException] && FileKind.isStream(c) =>
        kind = FileKind.Stream
        IOTask.start(this)(streamed)
      case e: Throwable => Future.failed(failure(e))

  /** Runs a positional transfer of about `bytes` bytes (streams refuse it, in place). */
  private inline def positional[T](bytes: Long)(inline body: T)(using Async): Future[T] =
    run(kind != FileKind.Stream, bytes)(body)

  /** Runs a transfer in place if `seekable` and small, else on its own thread (class comment). */
  private inline def run[T](seekable: Boolean, bytes: Long)(inline body: T)(using
      Async
  ): Future[T] =
    if seekable && bytes <= File.InPlaceLimit then IOTask.inPlace(this)(body)
    else IOTask.start(this)(body)

  /** `n` bytes were transferred at `p`: moves the cursor past them if `p` is a position. */
  private def moved(p: Long, n: Int): Int =
    if p >= 0 && n > 0 then cursor = p + n
    n

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
   * The lines of the file at `path`, as a cold [[weft.flow.Flow]]: each run opens the file,
   * reads it from the start in pieces of [[InPlaceLimit]] bytes, decodes them with `charset`
   * (a character split between pieces is kept whole, see [[File.readString]]) and emits its
   * lines, ended by `"\n"` or `"\r\n"` (not part of the line). Text after the last line end is a
   * last line; an empty file has none.
   *
   * The file is closed when the run ends, however it ends: at the end of the file, on a
   * failure, on a `take` downstream, or on a cancellation. A missing file fails the run (not
   * this call) with `NoSuchFileException`.
   * {{{
   * Async.blocking:
   *   File.lines("access.log").filter(_.contains(" 500 ")).take(10).runToList()
   * }}}
   * @throws IllegalArgumentException
   *   if `path` is empty or `charset` is null
   */
  def lines(path: String, charset: Charset = StandardCharsets.UTF_8): weft.flow.Flow[String] =
    FileFlows.lines(path, charset)

  /**
   * Runs `lines` and writes each line, followed by `"\n"` and encoded with `charset`, to the
   * file at `path`, created if missing and truncated first unless `append`. Lines are collected
   * and written in pieces of about [[InPlaceLimit]] characters (as a `BufferedWriter` would);
   * everything is written, and the file closed, when the run ends. A failure of the flow or of
   * a write closes the file and is thrown; what was written before stays in the file.
   * @return
   *   the number of lines written
   * @throws IllegalArgumentException
   *   if `path` is empty, or `lines` or `charset` is null
   */
  def writeLines(
      path: String,
      lines: weft.flow.Flow[String],
      charset: Charset = StandardCharsets.UTF_8,
      append: Boolean = false
  )(using Async): Long =
    FileFlows.writeLines(path, lines, charset, append)

  /**
   * Runs `chunks` and writes each buffer whole, in order, to the file at `path`, created if
   * missing and truncated first unless `append`; one write per buffer, as [[File.write]] does.
   * The file is closed when the run ends, however it ends.
   * @return
   *   the number of bytes written
   * @throws IllegalArgumentException
   *   if `path` is empty or `chunks` is null
   */
  def writeChunks(path: String, chunks: weft.flow.Flow[ByteBuffer], append: Boolean = false)(using
      Async
  ): Long =
    FileFlows.writeChunks(path, chunks, append)
