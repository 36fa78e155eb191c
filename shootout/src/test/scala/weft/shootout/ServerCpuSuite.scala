package weft.shootout

import java.nio.charset.StandardCharsets
import java.nio.file.Files

/** The server's and the client's CPU per op: parsed from the forks' lines, summed, attached. */
class ServerCpuSuite extends munit.FunSuite:

  private def line(
      contender: String,
      ops: Long,
      nanos: Long,
      threads: Int = 32,
      client: Option[Long] = None,
      workload: String = "memcached-setget"
  ) =
    s"""{"workload": "$workload", "contender": "$contender", "threads": $threads, """ +
      s""""measuredOps": $ops, "serverCpuNanos": $nanos""" +
      client.fold("")(c => s""", "clientCpuNanos": $c""") + "}"

  private val w = MemcachedWorkloads.setGet

  private def row(c: String, s: Double, threads: Int = 32) =
    Row(
      w.id,
      c,
      threads,
      Some(s),
      None,
      w.unit,
      true,
      Rows.jmhParams(threads, Module.Bench, c, Mode.Throughput, Params.smoke)
    )

  private def logs(lines: String*) =
    val dir = Files.createTempDirectory("server-cpu")
    Files.writeString(
      dir.resolve("memcached-setget-server.jsonl"),
      lines.mkString("", "\n", "\n"),
      StandardCharsets.UTF_8
    )
    dir.toFile

  test("the forks of a row are summed: total CPU over total ops"):
    val m = ServerCpu.parse(Seq(line("weft", 1000, 4_000_000), line("weft", 3000, 2_000_000)))
    assertEqualsDouble(m(("memcached-setget", "weft", 32)), 6_000_000 / 1e3 / 4000, 1e-9)

  test("lines without ops or CPU, and garbage, are ignored"):
    val m = ServerCpu.parse(Seq(line("weft", 0, 10), line("spyAscii", 10, -1), "not json", ""))
    assertEquals(m, Map.empty)

  test("the figure goes beside the score in summary.json and in the report's table"):
    val rows =
      ServerCpu.attach(
        Seq(row("weft", 100.0), row("spyAscii", 50.0)),
        logs(line("weft", 2000, 5_000_000))
      )
    assertEquals(rows.head.extras, Seq(Extra(ServerCpu.Key, ServerCpu.Label, 2.5)))
    assertEquals(rows(1).extras, Nil)
    val json = ujson.read(SummaryJson.render(rows)).arr
    assertEquals(json(0)(ServerCpu.Key).num, 2.5)
    assert(!json(1).obj.contains(ServerCpu.Key))
    val md = Report.render(Fixtures.quickRunInfo, Seq(w), rows, Nil)
    assert(md.contains(s"| ${ServerCpu.Label} |"), md)
    assert(
      md.linesIterator.exists(l => l.startsWith("| weft | 32 |") && l.endsWith(" 2.500 |")),
      md
    )
    assert(md.linesIterator.exists(l => l.startsWith("| spyAscii | 32 |") && l.endsWith("| |")), md)

  test("the client's CPU is its own field, summed over the forks of a row like the server's"):
    val lines = Seq(
      line("weft", 1000, 4_000_000, client = Some(9_000_000)),
      line("weft", 3000, 2_000_000, client = Some(3_000_000)),
      line("folsomBinary", 2000, 8_000_000, client = Some(1_000_000)),
      line("weft", 500, 1_000_000, threads = 4, client = Some(2_000_000))
    )
    val m = ClientCpu.parse(lines)
    assertEquals(
      m.keySet,
      Set(
        ("memcached-setget", "weft", 32),
        ("memcached-setget", "folsomBinary", 32),
        ("memcached-setget", "weft", 4)
      )
    )
    assertEqualsDouble(m(("memcached-setget", "weft", 32)), 12_000_000 / 1e3 / 4000, 1e-9)
    assertEqualsDouble(m(("memcached-setget", "folsomBinary", 32)), 0.5, 1e-9)
    assertEqualsDouble(m(("memcached-setget", "weft", 4)), 4.0, 1e-9)
    // the server's figure is untouched by the client's field
    assertEqualsDouble(ServerCpu.parse(lines)(("memcached-setget", "weft", 32)), 1.5, 1e-9)

  test("a line without the client's figure (open loop) or with it unreadable gives none"):
    val lines = Seq(
      line("weft", 1000, 4_000_000),
      line("spyAscii", 1000, 4_000_000, client = Some(-1)),
      line("folsomAscii", 0, 4_000_000, client = Some(5))
    )
    assertEquals(ClientCpu.parse(lines), Map.empty)
    assertEquals(ServerCpu.parse(lines).keySet.map(_._2), Set("weft", "spyAscii"))

  test("both columns, server's then client's, for every contender at every thread count"):
    val rows = ServerCpu.attach(
      Seq(row("weft", 100.0), row("folsomBinary", 50.0), row("weft", 80.0, threads = 4)),
      logs(
        line("weft", 2000, 5_000_000, client = Some(8_000_000)),
        line("folsomBinary", 1000, 4_000_000, client = Some(3_000_000)),
        line("weft", 1000, 3_000_000, threads = 4, client = Some(6_000_000))
      )
    )
    assertEquals(
      rows.map(_.extras),
      Seq(
        Seq(Extra(ServerCpu.Key, ServerCpu.Label, 2.5), Extra(ClientCpu.Key, ClientCpu.Label, 4.0)),
        Seq(Extra(ServerCpu.Key, ServerCpu.Label, 4.0), Extra(ClientCpu.Key, ClientCpu.Label, 3.0)),
        Seq(Extra(ServerCpu.Key, ServerCpu.Label, 3.0), Extra(ClientCpu.Key, ClientCpu.Label, 6.0))
      )
    )
    val json = ujson.read(SummaryJson.render(rows)).arr
    assertEquals(json.map(_(ClientCpu.Key).num).toSeq, Seq(4.0, 3.0, 6.0))
    val md = Report.render(Fixtures.quickRunInfo, Seq(w), rows, Nil)
    assert(md.contains(s"| ${ServerCpu.Label} | ${ClientCpu.Label} |"), md)
    assert(
      md.linesIterator.exists(l =>
        l.startsWith("| folsomBinary | 32 |") && l.endsWith(" 4.000 | 3.000 |")
      ),
      md
    )
    assert(
      md.linesIterator.exists(l => l.startsWith("| weft | 4 |") && l.endsWith(" 3.000 | 6.000 |")),
      md
    )
