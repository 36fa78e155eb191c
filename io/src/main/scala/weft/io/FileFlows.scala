package weft.io

import java.nio.ByteBuffer
import java.nio.charset.Charset
import java.nio.file.StandardOpenOption
import weft.{Async, await}
import weft.flow.{Flow, FlowEmit}
import weft.internal.async.Cancellation

/**
 * The flows of files behind [[File.lines]], [[File.writeLines]] and [[File.writeChunks]].
 *
 * A flow is cold, so the file is opened by each run, on the run's fiber, and closed in a
 * `finally` of that run: whichever way the run ends (its end, a failure upstream or downstream,
 * a `take` downstream, which unwinds the source with an exception, or a cancellation) the file
 * is closed before the terminal operation returns.
 *
 * Reads and writes go through [[File]]'s relative operations, piece by piece of
 * [[File.InPlaceLimit]]: on a regular file each runs in place on the run's fiber (no thread
 * per piece), on a pipe on its own thread, which a cancellation stops by closing the file. A
 * piece that runs in place never waits for long, but never looks at the scope either, so the
 * loops check for a cancellation between pieces: a long file read by a fully fused flow stops
 * within a piece of a cancellation, and fails with the `CancellationException` (the next read,
 * on a fiber the cancellation interrupted, would fail with a `ClosedByInterruptException`
 * naming the file instead).
 */
private[io] object FileFlows:

  /** How many bytes a piece reads or how many characters it collects before a write. */
  private val Piece = File.InPlaceLimit

  /** Checks a path argument of the operator `op`. */
  def checkPath(op: String, path: String | Null): Unit =
    if path == null || path.isEmpty then
      throw IllegalArgumentException(s"$op: path must not be empty")

  /** Checks that a reference argument `param` of the operator `op` is given. */
  def notNull(op: String, param: String, value: AnyRef | Null): Unit =
    if value == null then throw IllegalArgumentException(s"$op: $param must not be null")

  def lines(path: String, charset: Charset): Flow[String] =
    checkPath("File.lines", path)
    notNull("File.lines", "charset", charset)
    Flow.usingEmit[String]: emit =>
      val f = File(path).open(StandardOpenOption.READ)
      try
        val split = LineSplitter()
        var piece = f.readString(Piece, charset).await
        while piece.nonEmpty do
          split.feed(piece, emit)
          Cancellation.check(s"File.lines ${f.path}")
          piece = f.readString(Piece, charset).await
        split.finish(emit)
      finally f.close()

  /** Opens `path` for writing (created if missing), truncated unless `append`. */
  private def openForWrite(path: String, append: Boolean): File =
    val last = if append then StandardOpenOption.APPEND else StandardOpenOption.TRUNCATE_EXISTING
    File(path).open(StandardOpenOption.CREATE, StandardOpenOption.WRITE, last)

  def writeLines(path: String, lines: Flow[String], charset: Charset, append: Boolean)(using
      Async
  ): Long =
    checkPath("File.writeLines", path)
    notNull("File.writeLines", "lines", lines)
    notNull("File.writeLines", "charset", charset)
    val f = openForWrite(path, append)
    try
      // Lines are collected into pieces: one write per piece, not per line (a file sink is
      // buffered, as a `BufferedWriter` is); what is collected is written when the run ends.
      val text = java.lang.StringBuilder()
      var count = 0L
      lines.runForeach: line =>
        text.append(line).append('\n')
        count += 1
        if text.length >= Piece then
          f.writeString(text.toString, charset).await: Unit
          text.setLength(0)
          Cancellation.check(s"File.writeLines ${f.path}")
      if text.length > 0 then f.writeString(text.toString, charset).await: Unit
      count
    finally f.close()

  def writeChunks(path: String, chunks: Flow[ByteBuffer], append: Boolean)(using Async): Long =
    checkPath("File.writeChunks", path)
    notNull("File.writeChunks", "chunks", chunks)
    val f = openForWrite(path, append)
    try
      var bytes = 0L
      chunks.runForeach: chunk =>
        bytes += f.write(chunk).await
        Cancellation.check(s"File.writeChunks ${f.path}")
      bytes
    finally f.close()

/**
 * Splits text that comes in pieces into lines ended by `"\n"` or `"\r\n"`, neither of them part
 * of the line. A line may span pieces, and so may a `"\r\n"`: the part after the last line end
 * of a piece waits in `carry` for the next piece, and the `'\r'` is dropped only once the line
 * is complete. The text after the last line end, if any, is a last line of its own.
 */
final private[io] class LineSplitter:
  private val carry = java.lang.StringBuilder()

  /** Emits every line that `piece` completes. */
  def feed(piece: String, emit: FlowEmit[String]): Unit =
    var start = 0
    var end = piece.indexOf('\n')
    while end >= 0 do
      val line =
        if carry.length == 0 then piece.substring(start, end)
        else
          val whole = carry.append(piece, start, end).toString
          carry.setLength(0)
          whole
      emit(withoutCr(line))
      start = end + 1
      end = piece.indexOf('\n', start)
    if start < piece.length then
      val _ = carry.append(piece, start, piece.length)

  /** Emits the last line, if the text did not end with a line end. */
  def finish(emit: FlowEmit[String]): Unit =
    if carry.length > 0 then
      val last = carry.toString
      carry.setLength(0)
      emit(last)

  private def withoutCr(line: String): String =
    if line.nonEmpty && line.charAt(line.length - 1) == '\r' then
      line.substring(0, line.length - 1)
    else line
