package weft.shootout

import java.nio.charset.StandardCharsets
import java.nio.file.Files

class ServerCpuSuite extends munit.FunSuite:

  private def line(contender: String, ops: Long, nanos: Long, threads: Int = 32) =
    s"""{"workload": "memcached-setget", "contender": "$contender", "threads": $threads, """ +
      s""""measuredOps": $ops, "serverCpuNanos": $nanos}"""

  test("the forks of a row are summed: total CPU over total ops"):
    val m = ServerCpu.parse(Seq(line("weft", 1000, 4_000_000), line("weft", 3000, 2_000_000)))
    assertEqualsDouble(m(("memcached-setget", "weft", 32)), 6_000_000 / 1e3 / 4000, 1e-9)

  test("lines without ops or CPU, and garbage, are ignored"):
    val m = ServerCpu.parse(Seq(line("weft", 0, 10), line("spyAscii", 10, -1), "not json", ""))
    assertEquals(m, Map.empty)

  test("the figure goes beside the score in summary.json and in the report's table"):
    val dir = Files.createTempDirectory("server-cpu")
    Files.writeString(
      dir.resolve("memcached-setget-server.jsonl"),
      line("weft", 2000, 5_000_000) + "\n",
      StandardCharsets.UTF_8
    )
    val w = MemcachedWorkloads.setGet
    def row(c: String, s: Double) =
      Row(
        w.id,
        c,
        32,
        Some(s),
        None,
        w.unit,
        true,
        Rows.jmhParams(32, Module.Bench, c, Mode.Throughput, Params.smoke)
      )
    val rows = ServerCpu.attach(Seq(row("weft", 100.0), row("spyAscii", 50.0)), dir.toFile)
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
