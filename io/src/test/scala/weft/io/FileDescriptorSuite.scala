package weft.io

import java.nio.file.{Files, Path, StandardOpenOption as O}
import weft.{Async, await}

/**
 * Closing a file releases its file descriptor, on every way out: `close()` and `withFile` (normal
 * and throwing body). Counted exactly, on Linux, as the descriptors of
 * this process (`/proc/self/fd`) that point at the test's file, so that other files the JVM
 * opens meanwhile do not matter.
 */
class FileDescriptorSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val dir = FunFixture[Path](
    _ => Files.createTempDirectory("weft-io-fd"),
    d => TestFiles.deleteTree(d)
  )

  /** The descriptors of this process open on `p`; None where /proc/self/fd does not exist. */
  private def openOn(p: Path): Option[Int] =
    val fds = Path.of("/proc/self/fd")
    if !Files.isDirectory(fds) then None
    else
      val target = p.toRealPath()
      val s = Files.list(fds)
      try
        Some(s.filter(fd =>
          try Files.readSymbolicLink(fd) == target
          catch case _: Exception => false
        ).count.toInt)
      finally s.close()

  dir.test("close() releases the descriptor; so does withFile, normal or throwing"): d =>
    val p = d.resolve("fd.txt")
    Files.writeString(p, "descriptors")
    assume(openOn(p).isDefined, "needs /proc/self/fd")
    Async.blocking:
      for _ <- 1 to 20 do
        val f = File(p.toString).open(O.READ)
        assertEquals(f.readString(4).await, "desc")
        f.close()
      assertEquals(openOn(p), Some(0), "File.close() left descriptors open")
      for _ <- 1 to 20 do PIOHelper.withFile(p.toString)(_.readString(4).await)
      for _ <- 1 to 20 do
        intercept[IllegalStateException]:
          PIOHelper.withFile(p.toString)(_ => throw IllegalStateException("body failed"))
      assertEquals(openOn(p), Some(0), "withFile left descriptors open")
