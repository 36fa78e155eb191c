package weft.bench.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, StandardOpenOption}

/**
 * The server's side of each memcached benchmark, as a Markdown table the shootout appends to
 * its report: one row per fork (contender and thread count) with the ops verified, the
 * server's `stats` deltas, whether they matched, and the CPU time per measured op of the
 * server and of the benchmark JVM (the client's side, [[ClientCpu]]). Each fork also appends
 * one JSON line (`<workload>-server.jsonl`: contender, threads, measured ops, server and client
 * CPU nanoseconds) from which the shootout puts both CPU figures per op beside each score
 * (`ServerCpu` and `ClientCpu` in the shootout). The shootout names the directory in
 * `WEFT_SHOOTOUT_DETAILS`; without it (a bare JMH run) the line in the fork's log is all there
 * is. Forks run one after another, so appending is safe.
 */
object ServerDetails:

  /**
   * One fork's figures; a CPU time is -1 where it could not be read.
   *
   * @param measuredCpuNanos
   *   the server's CPU time over the measured iterations
   * @param measuredClientCpuNanos
   *   the benchmark JVM's CPU time over the same iterations (-1, none, by default: a harness
   *   that does not measure it)
   */
  final case class Entry(
      contender: String,
      threads: Int,
      ops: Long,
      deltas: Seq[(String, Long)],
      matched: Boolean,
      measuredOps: Long,
      measuredCpuNanos: Long,
      measuredClientCpuNanos: Long = -1L
  ):
    private def perOp(nanos: Long) =
      Option.when(measuredOps > 0 && nanos >= 0)(nanos / 1e3 / measuredOps)

    /** Server CPU per measured op in microseconds, when the ops and the CPU time are known. */
    def cpuMicrosPerOp: Option[Double] = perOp(measuredCpuNanos)

    /** The benchmark JVM's CPU per measured op in microseconds, when known. */
    def clientCpuMicrosPerOp: Option[Double] = perOp(measuredClientCpuNanos)

    /** The JSON line the shootout reads. */
    def json(workload: String): String =
      s"""{"workload": "$workload", "contender": "$contender", "threads": $threads, """ +
        s""""measuredOps": $measuredOps, "serverCpuNanos": $measuredCpuNanos, """ +
        s""""clientCpuNanos": $measuredClientCpuNanos}"""

    /** The Markdown row. */
    def row: String =
      def us(v: Option[Double]) = v.fold("n/a")(c => f"$c%.1f")
      val check = if matched then "match" else "**MISMATCH: FAILED**"
      s"| $contender | $threads | $ops | ${deltas.map(_._2).mkString(" | ")} | $check | " +
        s"${us(cpuMicrosPerOp)} | ${us(clientCpuMicrosPerOp)} |"

  /** The line a fork prints at teardown: both CPU figures per measured op. */
  def cpuText(e: Entry): String =
    s"server CPU per measured op: ${e.cpuMicrosPerOp.fold("n/a")(c => f"$c%.2f")} us, " +
      s"client JVM CPU per measured op: ${e.clientCpuMicrosPerOp.fold("n/a")(c => f"$c%.2f")} us"

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
            "iterations only, divided by their ops; client CPU is the benchmark JVM's (all " +
            "its threads, the JMH harness's included) over the same iterations.\n\n" +
            s"| contender | threads | ops verified | ${e.deltas.map(_._1).mkString(" | ")} | " +
            "stats check | server CPU per op (us) | client CPU per op (us) |\n" +
            s"|---|---:|---:|${e.deltas.map(_ => "---:").mkString("|")}|---|---:|---:|\n"
      Files.writeString(
        file,
        header + e.row + "\n",
        UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND
      )
    }
