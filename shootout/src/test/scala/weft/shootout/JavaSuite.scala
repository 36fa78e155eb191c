package weft.shootout

import java.nio.file.Files

class JavaSuite extends munit.FunSuite:

  test("a child process that overruns its time is killed and reported as timed out"):
    val log = Files.createTempFile("weft-java", ".log").toFile
    val lines = Seq.newBuilder[String]
    val exit = Java.run(Seq("sh", "-c", "echo started; exec sleep 60"), log, 1)(lines += _)
    assertEquals(exit, Java.Exit.TimedOut(1))
    assertEquals(lines.result(), Seq("started"))
    assert(Files.readString(log.toPath).contains("killed after 1s"))

  test("a child's exit code and output lines are passed on"):
    val log = Files.createTempFile("weft-java", ".log").toFile
    val lines = Seq.newBuilder[String]
    assertEquals(
      Java.run(Seq("sh", "-c", "echo a; echo b; exit 3"), log, 60)(lines += _),
      Java.Exit.Code(3)
    )
    assertEquals(lines.result(), Seq("a", "b"))
