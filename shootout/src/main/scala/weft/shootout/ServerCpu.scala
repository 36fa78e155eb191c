package weft.shootout

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import scala.util.Try

/**
 * The memcached server's CPU time per op, beside each memcached score. The server shares the
 * cores with the client, so a client that makes it work harder (one `mg` per key where another
 * client sends one `get` line) is visible here even when its own score looks good.
 *
 * Each benchmark fork (and the open-loop harness) appends one JSON line per contender to
 * `logs/<workload>-server.jsonl`: `{"workload", "contender", "threads", "measuredOps",
 * "serverCpuNanos"}` over its measured iterations. The forks of one row are summed, so the
 * figure is the server's CPU over all measured ops of the row ÷ those ops. `ServerCpuSuite`
 * re-checks the sum and the fields.
 */
object ServerCpu:

  /** The field name in `summary.json`. */
  val Key: String = "serverCpuMicrosPerOp"

  /** The column heading in `REPORT.md`. */
  val Label: String = "server CPU per op (µs)"

  /** Microseconds per op by (workload, contender, threads), from the lines of the files. */
  def parse(lines: Seq[String]): Map[(String, String, Int), Double] =
    lines.flatMap(l => Try(ujson.read(l).obj).toOption).flatMap { o =>
      for
        w <- o.get("workload").flatMap(_.strOpt)
        c <- o.get("contender").flatMap(_.strOpt)
        t <- o.get("threads").flatMap(_.numOpt)
        ops <- o.get("measuredOps").flatMap(_.numOpt)
        cpu <- o.get("serverCpuNanos").flatMap(_.numOpt)
        if ops > 0 && cpu >= 0
      yield (w, c, t.toInt) -> (ops, cpu)
    }.groupMapReduce(_._1)(_._2)((a, b) => (a._1 + b._1, a._2 + b._2)).map { case (k, (ops, cpu)) =>
      k -> cpu / 1e3 / ops
    }

  /** `rows` with the server's CPU per op attached where `logs` has it. */
  def attach(rows: Seq[Row], logs: File): Seq[Row] =
    val files = Option(logs.listFiles).toSeq.flatten.filter(_.getName.endsWith("-server.jsonl"))
    val lines = files.flatMap(f =>
      Try(Files.readAllLines(f.toPath, StandardCharsets.UTF_8).toArray(Array.empty[String]).toSeq)
        .getOrElse(Nil)
    )
    val cpu = parse(lines)
    rows.map(r =>
      cpu.get((r.workload, r.contender, r.threads)).fold(r)(us =>
        r.copy(extras = r.extras :+ Extra(Key, Label, us))
      )
    )
