package weft.bench.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, StandardOpenOption}

/**
 * The server's side of each memcached benchmark, as a Markdown table the shootout appends to
 * its report: one row per fork (contender and thread count) with the ops verified, the
 * server's `stats` deltas, whether they matched, and the server's CPU time per measured op.
 * Each fork also appends one JSON line (`<workload>-server.jsonl`: contender, threads, measured
 * ops and server CPU nanoseconds) from which the shootout puts the CPU per op beside each score
 * (`ServerCpu` in the shootout). The shootout names the directory in `WEFT_SHOOTOUT_DETAILS`;
 * without it (a bare JMH run) the line in the fork's log is all there is. Forks run one after
 * another, so appending is safe.
 */
object ServerDetails:

  /** One fork's figures. */
  final case class Entry(
      contender: String,
      threads: Int,
      ops: Long,
      deltas: Seq[(String, Long)],
      matched: Boolean,
      measuredOps: Long,
      measuredCpuNanos: Long
  ):
    /** Server CPU per measured op in microseconds, when the ops and the CPU time are known. */
    def cpuMicrosPerOp: Option[Double] =
      Option.when(measuredOps > 0 && measuredCpuNanos >= 0)(measuredCpuNanos / 1e3 / measuredOps)

    /** The JSON line the shootout reads. */
    def json(workload: String): String =
      s"""{"workload": "$workload", "contender": "$contender", "threads": $threads, """ +
        s""""measuredOps": $measuredOps, "serverCpuNanos": $measuredCpuNanos}"""

    /** The Markdown row. */
    def row: String =
      val cpu = cpuMicrosPerOp.fold("n/a")(c => f"$c%.1f")
      val check = if matched then "match" else "**MISMATCH: FAILED**"
      s"| $contender | $threads | $ops | ${deltas.map(_._2).mkString(" | ")} | $check | $cpu |"

  /**
   * Appends `e` to the workload's table, writing its heading first if the file is new, and its
   * JSON line to `<workload>-server.jsonl`.
   */
  def record(workload: String, e: Entry): Unit =
    sys.env.get("WEFT_SHOOTOUT_DETAILS").foreach { dir =>
      Files.writeString(
        Path.of(dir, s"$workload-server.jsonl"),
        e.json(workload) + "\n",
        UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND
      )
      val file = Path.of(dir, s"$workload-server.md")
      val header =
        if Files.exists(file) then ""
        else
          s"# $workload: the server's side\n\n" +
            s"memcached flags for every contender: `${BenchServer.Flags.mkString(" ")}`. " +
            "Stats deltas are over the whole fork (warm-up included) and must equal ops x " +
            "requests per op; server CPU (all its threads, from /proc) is over the measured " +
            "iterations only, divided by their ops.\n\n" +
            s"| contender | threads | ops verified | ${e.deltas.map(_._1).mkString(" | ")} | " +
            "stats check | server CPU per op (us) |\n" +
            s"|---|---:|---:|${e.deltas.map(_ => "---:").mkString("|")}|---|---:|\n"
      Files.writeString(
        file,
        header + e.row + "\n",
        UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND
      )
    }
