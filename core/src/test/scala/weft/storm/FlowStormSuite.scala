package weft.storm

import java.util.concurrent.ConcurrentHashMap
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import weft.*
import weft.flow.Flow
import weft.testing.{Storm, Stress}
import weft.testing.Storm.Outcome
import weft.testing.TimeTesting.awaitCondition

/**
 * Flows in the cancellation storm: each call runs a random chain of linear operators and
 * asynchronous boundaries over a short source and is given up at random (a 0-1 ms timeout, a
 * cancel from another fiber, or none). Each run either gives exactly the elements a model of the
 * chain says (in order where the chain keeps it) or ends with the cancellation; no stage's
 * thread and no timer outlives the storm. `Storm.ops` calls: a short sample in `test`, the full
 * size in `stress`.
 */
class FlowStormSuite extends munit.FunSuite, weft.testing.StressChecks:

  override val munitTimeout = 5.minutes

  /** A random flow, the elements it must give, and whether their order is fixed. */
  final case class Plan(flow: Flow[Int], expected: List[Int], ordered: Boolean, chain: String)

  /** The threads that ran a stage of any run of the storm. */
  val stageThreads: java.util.Set[Thread] = ConcurrentHashMap.newKeySet[Thread]()

  def here(): Unit = stageThreads.add(Thread.currentThread()): Unit

  /** The work of the parallel maps: gives its carrier up or waits a little, at random. */
  def step(x: Int)(using Async): Int =
    here()
    if x % 3 == 0 then sleep(0) else weft.runtime.Fiber.yieldNow()
    x

  /** The chain of call `seed`: 1 to 4 operators, picked by a generator seeded with it. */
  def plan(seed: Int): Plan =
    val rnd = scala.util.Random(seed)
    val n = rnd.nextInt(40)
    var flow: Flow[Int] = Flow.usingEmit[Int] { emit =>
      here()
      for i <- 0 until n do emit(i)
    }
    var model = (0 until n).toList
    var ordered = true
    val chain = List.newBuilder[String]
    for _ <- 0 until 1 + rnd.nextInt(4) do
      val p = 1 + rnd.nextInt(4)
      rnd.nextInt(12) match
        case 0 =>
          flow = flow.map(_ * 3 + 1); model = model.map(_ * 3 + 1); chain += "map"
        case 1 =>
          flow = flow.filter(_ % 2 == 0); model = model.filter(_ % 2 == 0); chain += "filter"
        case 2 =>
          val c = rnd.nextInt(4)
          flow = flow.buffer(c); chain += s"buffer($c)"
        case 3 =>
          flow = flow.mapPar(p)(step); chain += s"mapPar($p)"
        case 4 =>
          flow = flow.mapParUnordered(p)(step); ordered = false; chain += s"mapParUnordered($p)"
        case 5 =>
          val m = rnd.nextInt(20)
          flow = flow.merge(Flow.range(1000, 1000 + m)); model = model ++ (1000 until 1000 + m)
          ordered = false; chain += s"merge($m)"
        case 6 =>
          flow = flow.zip(Flow.iterate(0)(_ + 1)).map(_._1); chain += "zip"
        case 7 =>
          flow = flow.interleave(Flow(-1, -2, -3), p); model = model ++ List(-1, -2, -3)
          ordered = false; chain += s"interleave($p)"
        case 8 =>
          flow = flow.groupBy(p, x => Math.floorMod(x, 3))((_, sub) => sub.tap(_ => here()))
          ordered = false; chain += s"groupBy($p)"
        case 9 =>
          flow = flow.flatMapMerge(p)(x => Flow(x, x)); model = model.flatMap(x => List(x, x))
          ordered = false; chain += s"flatMapMerge($p)"
        case 10 =>
          flow = flow.groupedWithin(p, 1.milli).mapConcat(identity); chain += s"groupedWithin($p)"
        case _ =>
          if ordered then
            val k = rnd.nextInt(10)
            flow = flow.take(k); model = model.take(k); chain += s"take($k)"
          else
            flow = flow.buffer(p); chain += s"buffer($p)"
    Plan(flow, model, ordered, chain.result().mkString("."))

  /** Runs call `i`'s plan, through a terminal operation picked by `i`, and checks its elements. */
  def runOne(i: Int)(using Async): Unit =
    val p = plan(i)
    val got =
      if i % 4 == 0 then p.flow.runToChannel(i % 3).toList()
      else if i % 4 == 1 then p.flow.runFold(List.empty[Int])((acc, x) => x :: acc).reverse
      else p.flow.runToList()
    val same = if p.ordered then got == p.expected else got.sorted == p.expected.sorted
    if !same then throw AssertionError(s"call $i, ${p.chain}: got $got, expected ${p.expected}")

  test("random chains of boundaries, cancelled at random: right values or a cancellation".tag(
    Stress.tag
  )):
    withinDeadline(240, "storm-flow"):
      val timersBefore = weft.testing.TimeTesting.pendingTimers
      val r = Storm.run(fibers = 4, seed = 17)(i => runOne(i))
      println(s"storm flow: $r")
      assertEquals(r.notExactlyOnce.take(5), Nil, s"calls not completed exactly once ($r)")
      assertEquals(r.count(Outcome.Failed), 0, s"runs failed otherwise than by cancellation ($r)")
      assertEquals(r.aliveThreads.take(3), Nil, s"callers outlived their call ($r)")
      val alive = stageThreads.asScala.filter(_.isAlive).take(3).toList
      assertEquals(alive, Nil, s"stage threads outlived their run ($r)")
      assert(r.count(Outcome.Returned) > 0, s"no run ever finished, the storm tested nothing ($r)")
      assert(
        r.count(Outcome.Cancelled) + r.count(Outcome.TimedOut) > 0,
        s"no run was ever given up, the storm tested nothing of cancellation ($r)"
      )
      awaitCondition("the windows' timers freed")(
        weft.testing.TimeTesting.pendingTimers <= timersBefore
      )

  test("every chain of the storm gives its model's elements when nothing gives it up"):
    withinDeadline(120, "storm-flow-plans"):
      Async.blocking:
        for i <- 0 until 300 do runOne(i)
