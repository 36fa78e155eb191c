package weft.memcached

import java.io.{BufferedReader, InputStreamReader}
import java.net.{InetSocketAddress, ServerSocket, Socket}
import java.nio.charset.StandardCharsets.US_ASCII

/**
 * A real memcached started by a test as a child process on a free 127.0.0.1 port, and stopped
 * by it. Tests call [[MemcachedServer.assumeAvailable]] first: without a binary they are
 * skipped with a message saying how to install one.
 */
final class MemcachedServer private (val port: Int, private var proc: Process, args: Seq[String]):

  /** `127.0.0.1:port`. */
  def address: String = s"127.0.0.1:$port"

  /** The process id. */
  def pid: Long = proc.pid()

  /** Sends SIGSTOP: the server stops reading and answering (the kernel still accepts). */
  def pause(): Unit = signal("STOP")

  /** Sends SIGCONT. */
  def resume(): Unit = signal("CONT")

  /** Kills the server with SIGKILL and waits for it to exit. */
  def kill(): Unit =
    signal("KILL")
    proc.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)

  /** Starts a fresh (empty) server on the same port. */
  def restart(): Unit =
    proc = MemcachedServer.launch(port, args)

  /** Stops the server (SIGCONT first, in case it was paused). */
  def stop(): Unit =
    if proc.isAlive then
      signal("CONT")
      proc.destroyForcibly()
      proc.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)

  /** One `stats` value, read over a separate connection. */
  def stat(name: String): String = MemcachedServer.stats(port)(name)

  /**
   * Waits (at most 10 s) until the server counts no client connection besides the one
   * reading the stats, and returns the last count seen: the no-leak check.
   */
  def awaitNoClientConnections(): Int =
    val end = System.nanoTime() + 10_000_000_000L
    var n = stat("curr_connections").toInt - 1
    while n != 0 && System.nanoTime() < end do
      Thread.sleep(20)
      n = stat("curr_connections").toInt - 1
    n

  private def signal(sig: String): Unit =
    val p = ProcessBuilder("kill", s"-$sig", pid.toString).inheritIO().start()
    p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)

/** Starting servers. */
object MemcachedServer:

  /** The memcached binary, if one is installed. */
  lazy val binary: Option[String] =
    val candidates = Seq("/usr/bin/memcached", "/usr/local/bin/memcached") ++
      sys.env.getOrElse("PATH", "").split(':').filter(_.nonEmpty).map(_ + "/memcached")
    candidates.find(p => java.io.File(p).canExecute)

  /** The message a skipped test shows. */
  val missing = "no memcached binary found: install Debian's memcached (apt-get install memcached)"

  /** Skips the calling test when there is no binary. */
  def assumeAvailable(): Unit = munit.Assertions.assume(binary.isDefined, missing)

  /** Starts a server on a free port (extra `args`, e.g. `-I 2m`). */
  def start(args: String*): MemcachedServer =
    val port = freePort()
    MemcachedServer(port, launch(port, args), args)

  /** Runs `body` with a started server, stopped afterwards. */
  def withServer[T](args: String*)(body: MemcachedServer => T): T =
    assumeAvailable()
    val s = start(args*)
    try body(s)
    finally s.stop()

  /** Runs `body` with `n` started servers. */
  def withServers[T](n: Int)(body: IndexedSeq[MemcachedServer] => T): T =
    assumeAvailable()
    val ss = (0 until n).map(_ => start())
    try body(ss)
    finally ss.foreach(_.stop())

  /** A port free now. */
  def freePort(): Int =
    val s = ServerSocket(0)
    try s.getLocalPort
    finally s.close()

  private def launch(port: Int, args: Seq[String]): Process =
    val user = if sys.props("user.name") == "root" then Seq("-u", "root") else Nil
    val cmd = Seq(binary.get, "-U", "0", "-l", "127.0.0.1", "-p", port.toString, "-t", "2") ++
      user ++ args
    val p = ProcessBuilder(cmd*).redirectErrorStream(true).redirectOutput(
      ProcessBuilder.Redirect.DISCARD
    ).start()
    val end = System.nanoTime() + 10_000_000_000L
    var ready = false
    while !ready && System.nanoTime() < end do
      try
        stats(port)
        ready = true
      catch case _: java.io.IOException => Thread.sleep(10)
    if !ready then
      p.destroyForcibly()
      throw IllegalStateException(s"memcached did not start on port $port within 10 s")
    p

  /** `stats` over a fresh connection (closed before returning). */
  def stats(port: Int): Map[String, String] =
    val s = Socket()
    try
      s.connect(InetSocketAddress("127.0.0.1", port), 1000)
      s.setSoTimeout(2000)
      s.getOutputStream.write("stats\r\n".getBytes(US_ASCII))
      val in = BufferedReader(InputStreamReader(s.getInputStream, US_ASCII))
      val out = Map.newBuilder[String, String]
      var line = in.readLine()
      var n = 0
      while line != null && line != "END" && n < 1000 do
        val parts = line.split(' ')
        if parts.length >= 3 then out += parts(1) -> parts(2)
        line = in.readLine()
        n += 1
      out.result()
    finally s.close()
