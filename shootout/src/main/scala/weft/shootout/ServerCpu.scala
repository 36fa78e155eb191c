package weft.shootout

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import scala.util.Try

/**
 * A CPU time per op that the memcached benchmark forks record beside their scores: `field` is
 * the nanoseconds in each fork's JSON line, `key` the field in `summary.json`, `label` the
 * column heading in `REPORT.md`.
 */
final case class CpuPerOp(field: String, key: String, label: String):

  /**
   * Microseconds per op by (workload, contender, threads), from the lines of the files: the
   * forks of one row are summed (CPU over all the row's measured ops ÷ those ops); lines
   * without ops or without this figure (negative: not readable) are ignored.
   */
  def parse(lines: Seq[String]): Map[(String, String, Int), Double] =
    lines.flatMap(l => Try(ujson.read(l).obj).toOption).flatMap { o =>
      for
        w <- o.get("workload").flatMap(_.strOpt)
        c <- o.get("contender").flatMap(_.strOpt)
        t <- o.get("threads").flatMap(_.numOpt)
        ops <- o.get("measuredOps").flatMap(_.numOpt)
        cpu <- o.get(field).flatMap(_.numOpt)
        if ops > 0 && cpu >= 0
      yield (w, c, t.toInt) -> (ops, cpu)
    }.groupMapReduce(_._1)(_._2)((a, b) => (a._1 + b._1, a._2 + b._2)).map { case (k, (ops, cpu)) =>
      k -> cpu / 1e3 / ops
    }

  /** `rows` with this figure attached as an [[Extra]] where `lines` have it. */
  def attach(rows: Seq[Row], lines: Seq[String]): Seq[Row] =
    val cpu = parse(lines)
    rows.map(r =>
      cpu.get((r.workload, r.contender, r.threads)).fold(r)(us =>
        r.copy(extras = r.extras :+ Extra(key, label, us))
      )
    )

/**
 * The memcached server's CPU time per op, beside each memcached score. The server shares the
 * cores with the client, so a client that makes it work harder (one `mg` per key where another
 * client sends one `get` line) is visible here even when its own score looks good.
 *
 * Each benchmark fork (and the open-loop harness) appends one JSON line per contender to
 * `logs/<workload>-server.jsonl`: `{"workload", "contender", "threads", "measuredOps",
 * "serverCpuNanos", "clientCpuNanos"}` over its measured iterations (the open-loop harness
 * writes no client figure). The forks of one row are summed, so the figure is the server's CPU
 * over all measured ops of the row ÷ those ops. `ServerCpuSuite` re-checks the sum and the
 * fields.
 */
object ServerCpu:

  /** The field name in `summary.json`. */
  val Key: String = "serverCpuMicrosPerOp"

  /** The column heading in `REPORT.md`. */
  val Label: String = "server CPU per op (µs)"

  /** The server's figure. */
  val figure: CpuPerOp = CpuPerOp("serverCpuNanos", Key, Label)

  /** Microseconds per op by (workload, contender, threads), from the lines of the files. */
  def parse(lines: Seq[String]): Map[(String, String, Int), Double] = figure.parse(lines)

  /**
   * `rows` with the server's CPU per op and then the client's ([[ClientCpu]]) attached where
   * the `-server.jsonl` files in `logs` have them, so the two columns stand side by side.
   */
  def attach(rows: Seq[Row], logs: File): Seq[Row] =
    val files = Option(logs.listFiles).toSeq.flatten.filter(_.getName.endsWith("-server.jsonl"))
    val lines = files.flatMap(f =>
      Try(Files.readAllLines(f.toPath, StandardCharsets.UTF_8).toArray(Array.empty[String]).toSeq)
        .getOrElse(Nil)
    )
    ClientCpu.figure.attach(figure.attach(rows, lines), lines)
