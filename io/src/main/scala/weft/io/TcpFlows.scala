package weft.io

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import weft.{Async, await}
import weft.flow.Flow

/**
 * The flows of a TCP connection behind [[TcpConnection.lines]], [[TcpConnection.writeLines]] and
 * [[TcpConnection.writeChunks]].
 *
 * The connection is the caller's, opened before and closed after as the caller decides: a flow
 * of its lines is a way of reading it, not a resource of its own. So a run ends at the peer's
 * clean close without closing this side, and a run stopped early leaves the unread bytes in the
 * connection's buffer. A cancelled read closes the connection (see [[IOTask]]): that is the
 * one state defined after a read cut short.
 *
 * Reading a line that is already buffered whole takes no thread ([[TcpConnection.bufferedLine]]);
 * one that needs the socket is one read future, awaited. A peer that sends many lines at once
 * thus costs one thread per buffer-full, not per line.
 */
private[io] object TcpFlows:

  def lines(conn: TcpConnection, maxLength: Int): Flow[String] =
    if maxLength < 0 then
      throw IllegalArgumentException(s"TcpConnection.lines: maxLength must be >= 0, was $maxLength")
    Flow.usingEmit[String]: emit =>
      var more = true
      while more do
        var line = conn.bufferedLine(maxLength)
        if line == null then line = conn.readLineOrEnd(maxLength).await
        if line == null then more = false else emit(line.nn)

  def writeLines(conn: TcpConnection, lines: Flow[String])(using Async): Long =
    FileFlows.notNull("TcpConnection.writeLines", "lines", lines)
    var count = 0L
    lines.runForeach: line =>
      conn.write(ByteBuffer.wrap(s"$line\r\n".getBytes(StandardCharsets.UTF_8))).await
      count += 1
    count

  def writeChunks(conn: TcpConnection, chunks: Flow[ByteBuffer])(using Async): Long =
    FileFlows.notNull("TcpConnection.writeChunks", "chunks", chunks)
    var bytes = 0L
    chunks.runForeach: chunk =>
      val n = chunk.remaining
      conn.write(chunk).await
      bytes += n
    bytes
