package weft.io

import java.io.IOException
import java.nio.channels.{ClosedChannelException, FileChannel}
import java.nio.file.StandardOpenOption
import java.util.EnumSet

/**
 * What an open [[File]] is, for deciding where its transfers run and who keeps its position.
 *
 * ==Algorithm==
 * A file either can seek (regular files, block devices, most character devices) or is a stream
 * (pipes, FIFOs, terminals), and only the OS knows which. Asking costs a system call, and on
 * this machine a `stat` of the path (`Files.isRegularFile`) cost a third of a whole 4-byte read
 * (ADR 0002), so the question is folded into work that is done anyway:
 *
 *   - [[Unknown]] after `open`. [[File]] keeps the position of relative transfers itself (at 0
 *     after opening) and does each as a positional one (`pread`/`pwrite`) at that position. The
 *     first small transfer runs in place: if it works the file can seek ([[Positional]]); a
 *     stream fails it at once with `ESPIPE`, having moved nothing, and [[isStream]] confirms it
 *     ([[Stream]]) before the transfer is redone through the channel on its own thread. A large
 *     first transfer, which runs on its own thread either way, asks [[isStream]] first.
 *   - [[Positional]]: seekable; relative transfers stay positional at the file's own position,
 *     so the channel's position never moves and no `lseek` is ever needed.
 *   - [[Appending]]: seekable and opened with `APPEND` (checked at `open`, by [[isStream]]):
 *     writes go through the channel, whose kernel-side `O_APPEND` puts them at the end (a
 *     positional write there is appended on Linux but not on every POSIX system).
 *   - [[Stream]]: every transfer goes through the channel, on its own thread.
 */
private[io] object FileKind:
  /** Not known yet: relative transfers are positional, and the first one probes. */
  final val Unknown = 0

  /** Seekable: relative transfers positional at the file's own position. */
  final val Positional = 1

  /** Seekable, opened with `APPEND`: transfers through the channel. */
  final val Appending = 2

  /** A stream: transfers through the channel, each on its own thread. */
  final val Stream = 3

  /** The kind of `c` just opened with `options`: [[Unknown]] unless they include `APPEND`. */
  def afterOpen(c: FileChannel, options: EnumSet[StandardOpenOption]): Int =
    if !options.contains(StandardOpenOption.APPEND) then Unknown
    else if isStream(c) then Stream
    else Appending

  /**
   * Whether `c` is a stream: it seeks to the start (one `lseek`, which streams fail with
   * `ESPIPE`). Only called while nothing has moved the channel's own position, which is then 0:
   * `position(0)` rather than `position()`, which with `APPEND` asks for the size instead.
   * A closed channel (closed by an interrupt, say) counts as seekable: its transfers fail
   * anyway, with `ClosedChannelException`.
   */
  def isStream(c: FileChannel): Boolean =
    try
      c.position(0L)
      false
    catch
      case _: ClosedChannelException => false
      case _: IOException            => true

  /**
   * `options` as the set `FileChannel.open` takes: an `EnumSet` (one word of bits), where the
   * varargs overload of `open` builds a `HashSet`.
   */
  def optionSet(options: Seq[StandardOpenOption]): EnumSet[StandardOpenOption] =
    val set = EnumSet.noneOf(classOf[StandardOpenOption])
    val it = options.iterator
    while it.hasNext do set.add(it.next())
    set
