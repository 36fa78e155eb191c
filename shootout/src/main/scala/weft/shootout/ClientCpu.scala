package weft.shootout

/**
 * The benchmark JVM's CPU time per op, beside the server's ([[ServerCpu]]) for every memcached
 * JMH workload: the process's CPU time (`getProcessCpuTime`: every thread, the client's and
 * the JMH harness's, the JIT's and the collector's) over the measured iterations ÷ their ops,
 * read at the points where the server's is read. The harness's own threads count alike for
 * every contender, so the differences between rows are the clients'. From the field
 * `clientCpuNanos` of the forks' `logs/<workload>-server.jsonl` lines, summed over the forks of
 * a row.
 */
object ClientCpu:

  /** The field name in `summary.json`. */
  val Key: String = "clientCpuMicrosPerOp"

  /** The column heading in `REPORT.md`. */
  val Label: String = "client CPU per op (µs)"

  /** The client's figure. */
  val figure: CpuPerOp = CpuPerOp("clientCpuNanos", Key, Label)

  /** Microseconds per op by (workload, contender, threads), from the lines of the files. */
  def parse(lines: Seq[String]): Map[(String, String, Int), Double] = figure.parse(lines)
