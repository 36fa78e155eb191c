package weft.io

import java.nio.file.{Files, Path}

/** Helpers for the IO suites: text and temporary trees. */
object TestFiles:

  /** ASCII text of `n` characters, varied so that misplaced bytes are noticed. */
  def text(n: Int): String =
    val sb = java.lang.StringBuilder(n)
    var i = 0
    while i < n do
      sb.append(('a' + (i * 7 + i / 26) % 26).toChar)
      i += 1
    sb.toString

  /** Deletes `root` and everything under it. */
  def deleteTree(root: Path): Unit =
    if Files.exists(root) then
      val s = Files.walk(root)
      try s.sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.deleteIfExists(p))
      finally s.close()

  /** Makes a FIFO at `path` with the `mkfifo` command; false if that is not possible here. */
  def mkfifo(path: Path): Boolean =
    try ProcessBuilder("mkfifo", path.toString).start().waitFor() == 0
    catch case _: java.io.IOException => false
