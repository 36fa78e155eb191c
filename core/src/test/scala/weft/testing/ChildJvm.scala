package weft.testing

import java.io.{BufferedReader, InputStreamReader}
import java.lang.management.ManagementFactory
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import scala.jdk.CollectionConverters.*

/**
 * A `main` of the test class path run in a child JVM, for tests of whole applications: real
 * signals, real exit codes. Every wait is bounded, so a child that hangs fails the test.
 */
object ChildJvm:

  /** Starts `mainClass` (a fully qualified object name) with this JVM's class path. */
  def start(mainClass: String, args: String*): Process =
    val java = Path.of(sys.props("java.home"), "bin", "java").toString
    val flags = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala
      .filter(_.startsWith("--sun-misc-unsafe-memory-access"))
    val cmd = Seq(java) ++ flags ++ Seq("-cp", sys.props("java.class.path"), mainClass) ++ args
    ProcessBuilder(cmd.asJava).redirectError(ProcessBuilder.Redirect.PIPE).start()

  /** The child's standard output, line by line. */
  def output(p: Process): BufferedReader = BufferedReader(InputStreamReader(p.getInputStream))

  /** Sends the signal `name` (`TERM`, `INT`, ...) to the child. */
  def signal(p: Process, name: String): Unit =
    val kill = ProcessBuilder("kill", s"-$name", p.pid.toString).start()
    if !(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue == 0) then
      throw AssertionError(s"kill -$name ${p.pid} failed")

  /**
   * Whether this process ignores `signal` (its number): a process started in the background by
   * a non-interactive shell ignores SIGINT, its children inherit that, and the JVM then installs
   * no handler for it (it keeps an ignored shutdown signal ignored). Read from /proc; `false`
   * where there is none.
   */
  def ignores(signal: Int): Boolean =
    val status = Path.of("/proc/self/status")
    if !java.nio.file.Files.exists(status) then false
    else
      java.nio.file.Files.readAllLines(status).asScala.find(_.startsWith("SigIgn:")) match
        case Some(line) =>
          (java.lang.Long.parseUnsignedLong(line.drop(7).trim, 16) >> (signal - 1) & 1L) == 1L
        case None => false

  /** The exit code; kills the child and fails if it does not exit within a minute. */
  def exitCode(p: Process): Int =
    if !p.waitFor(60, TimeUnit.SECONDS) then
      p.destroyForcibly()
      throw AssertionError("the child JVM did not exit within 60 s")
    p.exitValue
