package weft.shootout

import java.io.{BufferedReader, File, IOException, InputStreamReader, PrintWriter}
import java.nio.charset.StandardCharsets
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import scala.jdk.CollectionConverters.*

/** Launching child JVMs: the JDK the shootout itself runs on. */
object Java:

  /** The `java` executable of the running JDK. */
  val executable: String = File(File(sys.props("java.home"), "bin"), "java").getPath

  /** How a child process ended. */
  enum Exit:
    /** It exited with this code. */
    case Code(code: Int)

    /** The watchdog killed it after this many seconds. */
    case TimedOut(seconds: Long)

  /**
   * Runs `command`, copying every output line to `log` and handing it to `onLine`; kills the
   * process (and its children) after `timeoutSeconds`. `env` is added to its environment.
   */
  def run(
      command: Seq[String],
      log: File,
      timeoutSeconds: Long,
      env: Map[String, String] = Map.empty
  )(onLine: String => Unit): Exit =
    log.getParentFile.mkdirs()
    val builder = ProcessBuilder(command.asJava).redirectErrorStream(true)
    env.foreach((k, v) => builder.environment().put(k, v))
    val process = builder.start()
    val killed = AtomicBoolean(false)
    val watchdog = Thread.ofPlatform().daemon().start { () =>
      try
        if !process.waitFor(timeoutSeconds, TimeUnit.SECONDS) then
          killed.set(true)
          process.descendants().forEach(_.destroyForcibly())
          process.destroyForcibly()
      catch case _: InterruptedException => ()
    }
    val writer = PrintWriter(log, StandardCharsets.UTF_8)
    try
      writer.println(command.map(a => if a.contains(' ') then s"'$a'" else a).mkString(" "))
      val reader = BufferedReader(InputStreamReader(process.getInputStream, StandardCharsets.UTF_8))
      // Killing the process closes its output under our feet: that ends the log, not the run.
      def next(): String | Null =
        try reader.readLine()
        catch case e: IOException => if killed.get then null else throw e
      var line = next()
      while line != null do
        writer.println(line)
        writer.flush()
        onLine(line)
        line = next()
      if killed.get then writer.println(s"[shootout] killed after ${timeoutSeconds}s (timeout)")
    finally writer.close()
    val code = process.waitFor()
    watchdog.interrupt()
    watchdog.join()
    if killed.get then Exit.TimedOut(timeoutSeconds) else Exit.Code(code)
