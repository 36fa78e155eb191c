package weft.io

import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit

/**
 * The listen backlog that servers get: large enough for a burst of a few hundred connects (with
 * 128 such a burst stalled about a second while the kernel dropped SYNs), and configurable
 * everywhere a server is bound. Read back from the kernel with `ss` (skipped where it is absent).
 */
class TcpBacklogSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** The backlog the kernel holds for the listening socket on `port` (`ss`'s Send-Q). */
  def kernelBacklog(port: Int): Int =
    assume(Files.isExecutable(Path.of("/usr/bin/ss")) || Files.isExecutable(Path.of("/bin/ss")))
    val p = ProcessBuilder("ss", "-ltnH", s"sport = :$port").redirectErrorStream(true).start()
    val out = String(p.getInputStream.readAllBytes())
    assert(p.waitFor(30, TimeUnit.SECONDS), "ss did not finish")
    out.trim.split("\\s+").toSeq match
      case Seq("LISTEN", _, backlog, _*) => backlog.toInt
      case _                             => fail(s"no listening socket on port $port in: $out")

  /** The kernel's cap on any backlog. */
  def somaxconn: Int =
    // read line by line: a /proc file reports size 0, and a read sized by it can come back short
    val r = Files.newBufferedReader(Path.of("/proc/sys/net/core/somaxconn"))
    try r.readLine().trim.toInt
    finally r.close()

  test("a server is bound with a backlog of 4096 by default (or the kernel's cap)"):
    val s = TcpServer.bind(0)
    try assertEquals(kernelBacklog(s.localPort), math.min(TcpServer.DefaultBacklog, somaxconn))
    finally s.close()

  test("the backlog is configurable in bind and in PIOHelper.withTcpServer"):
    val s = TcpServer.bind(0, backlog = 300)
    try assertEquals(kernelBacklog(s.localPort), math.min(300, somaxconn))
    finally s.close()
    PIOHelper.withTcpServer(0, backlog = 200)(s => assertEquals(kernelBacklog(s.localPort), 200))

  test("toString says where the server listens"):
    val s = TcpServer.bind(0)
    try assertEquals(s.toString, s"TcpServer(127.0.0.1:${s.localPort}, open)")
    finally s.close()
    assert(s.toString.endsWith("closed)"), s.toString)
