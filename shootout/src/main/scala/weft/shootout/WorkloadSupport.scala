package weft.shootout

/** What the workload definitions share: the JMH part builder, seed 002's parameters and source. */
private[shootout] object WorkloadSupport:

  private[shootout] def jmh(regex: String): JmhPart = JmhPart(Module.Bench, regex)

  /** Seed 002 publishes no JMH parameters; `--full` uses these. */
  private[shootout] val seed002Full = Params(5, "2s", 10, "2s", 3)

  private[shootout] val seed002Source =
    "seed 002: ThinkPad L15, i7-1165G7 @ 2.80GHz, OpenJDK 20, Scala 3.3.0-RC3; the seed's own " +
      "(lock-based, pre-weft) library; iteration counts not published"

  private[shootout] val amortised =
    "JMH: 1 platform thread. Each invocation hands off once to the contender's own kind of thread " +
      "and runs the loop there, @OperationsPerInvocation amortising that single handoff: weft " +
      "(Async.blocking entered on that thread), virtualThread, ox and scalaFuture in a virtual thread " +
      "started per invocation; cats-effect and ZIO as one unsafeRun of the whole loop on their own fiber runtime."
