package weft.bench.memcached

import java.io.{BufferedReader, InputStreamReader}
import java.net.{InetSocketAddress, ServerSocket, Socket}
import java.nio.charset.StandardCharsets.US_ASCII
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit
import scala.jdk.CollectionConverters.*

/**
 * A memcached server owned by one JMH fork: a fresh process on a free 127.0.0.1 port, started
 * with [[BenchServer.Flags]] for every contender, ready once it answers `version`, killed at
 * teardown. The shootout skips the memcached workloads when [[BenchServer.binary]] is absent, so
 * a missing server is never reported as a pass.
 */
final class BenchServer private (val port: Int, proc: Process):

  /** `127.0.0.1:port`. */
  def address: String = s"127.0.0.1:$port"

  /** The server's `stats` over a fresh connection. */
  def stats(): Map[String, Long] =
    BenchServer.command(port, "stats").flatMap { line =>
      line.split(' ') match
        case Array("STAT", name, value) => value.toLongOption.map(name -> _)
        case _                          => None
    }.toMap

  /**
   * CPU time the server process has used so far, all its threads, in nanoseconds: the sum of
   * the first field of `/proc/<pid>/task/<tid>/schedstat` (nanoseconds on a CPU; memcached's
   * threads live as long as the process). Where that is missing, user + system time from
   * `/proc/<pid>/stat` (fields 14 and 15, 10 ms ticks); -1 without `/proc`.
   */
  def cpuNanos(): Long =
    val tasks = Path.of(s"/proc/${proc.pid()}/task")
    val perThread =
      try
        val dirs = Files.list(tasks)
        try
          dirs.toList.asScala.toSeq.map(t =>
            Files.readString(t.resolve("schedstat"), US_ASCII).trim.split(' ')(0).toLong
          )
        finally dirs.close()
      catch case _: java.io.IOException => Nil
    if perThread.nonEmpty then perThread.sum
    else
      val stat = Path.of(s"/proc/${proc.pid()}/stat")
      if !Files.exists(stat) then -1L
      else
        val text = Files.readString(stat, US_ASCII)
        // The command name (field 2) is in parentheses and may contain spaces: split after it.
        val fields = text.substring(text.lastIndexOf(')') + 2).split(' ')
        (fields(11).toLong + fields(12).toLong) * (1_000_000_000L / BenchServer.ClockTicksPerSecond)

  /**
   * Which of `keys` this server holds, asked with classic `get` lines of 100 keys over a fresh
   * connection (values without line breaks, as the benchmarks store them).
   */
  def holding(keys: Seq[String]): Set[String] =
    val s = Socket()
    try
      s.connect(InetSocketAddress("127.0.0.1", port), 1000)
      s.setSoTimeout(5000)
      val out = s.getOutputStream
      val in = BufferedReader(InputStreamReader(s.getInputStream, US_ASCII))
      keys.grouped(100).flatMap { batch =>
        out.write(s"get ${batch.mkString(" ")}\r\n".getBytes(US_ASCII))
        out.flush()
        val found = Set.newBuilder[String]
        var line = in.readLine()
        var n = 0
        while line != null && line != "END" && n <= 2 * batch.size do
          if line.startsWith("VALUE ") then
            found += line.split(' ')(1)
            in.readLine()
          else throw IllegalStateException(s"unexpected reply to get: $line")
          line = in.readLine()
          n += 1
        found.result()
      }.toSet
    finally s.close()

  /** Kills the server and waits (at most 10 s) for it to exit. */
  def stop(): Unit =
    proc.destroyForcibly()
    proc.waitFor(10, TimeUnit.SECONDS)

/** Starting benchmark servers. */
object BenchServer:

  /** The memcached binary, if one is installed. */
  lazy val binary: Option[String] =
    val candidates = Seq("/usr/bin/memcached", "/usr/local/bin/memcached") ++
      sys.env.getOrElse("PATH", "").split(':').filter(_.nonEmpty).map(_ + "/memcached")
    candidates.find(p => java.io.File(p).canExecute)

  /** What to do without a binary. */
  val HowToInstall: String = "install Debian's memcached: apt-get install memcached"

  /**
   * The flags every contender's server gets (besides `-p <port>` and, as root, `-u root`): TCP
   * on loopback only, no UDP, 2 worker threads (the machine's cores are shared with the client),
   * 64 MiB of items, the default 1 MiB item limit, 1024 connections.
   */
  val Flags: Seq[String] = Seq("-U", "0", "-l", "127.0.0.1", "-t", "2", "-m", "64", "-c", "1024")

  /** `sysconf(_SC_CLK_TCK)` on Linux. */
  private val ClockTicksPerSecond = 100L

  /** Starts a server on a free port and waits (at most 10 s) until it answers `version`. */
  def start(): BenchServer =
    val bin = binary.getOrElse(throw IllegalStateException(s"no memcached binary: $HowToInstall"))
    val port = freePort()
    val user = if sys.props("user.name") == "root" then Seq("-u", "root") else Nil
    val cmd = Seq(bin, "-p", port.toString) ++ Flags ++ user
    val p = ProcessBuilder(cmd*).redirectErrorStream(true)
      .redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
    val end = System.nanoTime() + 10_000_000_000L
    var ready = false
    while !ready && p.isAlive && System.nanoTime() < end do
      try ready = command(port, "version").exists(_.startsWith("VERSION "))
      catch case _: java.io.IOException => Thread.sleep(10)
    if !ready then
      p.destroyForcibly()
      throw IllegalStateException(s"memcached did not answer `version` on port $port within 10 s")
    BenchServer(port, p)

  private def freePort(): Int =
    val s = ServerSocket(0)
    try s.getLocalPort
    finally s.close()

  /** Sends one classic command; returns its reply lines up to `END` (or the one line). */
  private def command(port: Int, line: String): Seq[String] =
    val s = Socket()
    try
      s.connect(InetSocketAddress("127.0.0.1", port), 1000)
      s.setSoTimeout(5000)
      s.getOutputStream.write(s"$line\r\n".getBytes(US_ASCII))
      val in = BufferedReader(InputStreamReader(s.getInputStream, US_ASCII))
      val out = Seq.newBuilder[String]
      var reply = in.readLine()
      var n = 0
      var done = false
      while !done && reply != null && n < 10_000 do
        if reply == "END" then done = true
        else
          out += reply
          if !reply.startsWith("STAT ") then done = true
          reply = if done then null else in.readLine()
        n += 1
      out.result()
    finally s.close()
