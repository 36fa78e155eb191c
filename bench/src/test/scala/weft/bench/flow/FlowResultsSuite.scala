package weft.bench.flow

/**
 * Every contender of every flow workload computes the value the workload expects, run once
 * outside JMH (each op checks it too, with [[FlowChecks.expect]], and throws otherwise): no
 * contender reports a figure for less work, or for other work, than the rest.
 */
class FlowResultsSuite extends munit.FunSuite:

  override val munitTimeout = scala.concurrent.duration.Duration(10, "min")

  private def runs[B](make: => B, setup: B => Unit, teardown: B => Unit)(
      ops: (String, B => Long)*
  )(expected: Long): Unit =
    val bench = make
    setup(bench)
    try
      for (name, op) <- ops do assertEquals(op(bench), expected, name)
    finally teardown(bench)

  test("a run that computed another value fails its benchmark, naming the contender"):
    val e = intercept[IllegalStateException](FlowChecks.expect("w", "slow", 41L, 42L))
    assert(e.getMessage.contains("slow computed 41"), e.getMessage)
    assertEquals(FlowChecks.expect("w", "right", 42L, 42L), 42L)

  test("flow-map-filter-1m: every contender computes the same sum"):
    runs[MapFilter](MapFilter(), _.setup(), _.teardown())(
      "weft" -> (_.weft()),
      "ox" -> (_.ox()),
      "fs2" -> (_.fs2()),
      "zioStreams" -> (_.zioStreams()),
      "pekkoStreams" -> (_.pekkoStreams()),
      "iterator" -> (_.iterator())
    )(MapFilter.Expected)
    assertEquals(MapFilter.Expected, 333_333_666_666L)

  test("flow-mappar-8: every contender computes the same ordered hash"):
    runs[MapPar8](MapPar8(), _.setup(), _.teardown())(
      "weft" -> (_.weft()),
      "ox" -> (_.ox()),
      "fs2" -> (_.fs2()),
      "zioStreams" -> (_.zioStreams()),
      "pekkoStreams" -> (_.pekkoStreams())
    )(MapPar8.Expected)

  test("flow-merge-4: every contender sums all four sources"):
    runs[Merge4](Merge4(), _.setup(), _.teardown())(
      "weft" -> (_.weft()),
      "ox" -> (_.ox()),
      "fs2" -> (_.fs2()),
      "zioStreams" -> (_.zioStreams()),
      "pekkoStreams" -> (_.pekkoStreams())
    )(Merge4.Expected)
    assertEquals(Merge4.Expected, 499_999_500_000L)

  test("flow-grouped-within: every contender's batches hold every element"):
    runs[GroupedWithin](GroupedWithin(), _.setup(), _.teardown())(
      "weft" -> (_.weft()),
      "ox" -> (_.ox()),
      "fs2" -> (_.fs2()),
      "zioStreams" -> (_.zioStreams()),
      "pekkoStreams" -> (_.pekkoStreams())
    )(GroupedWithin.Size.toLong)
