package weft.flow

import weft.*

/** `zip` and `interleave` (segment sizes, eager completion): values, ends, the other side stopped. */
class FlowZipSuite extends munit.FunSuite, FlowTesting:

  /**
   * A flow of `v` as good as endless (it ends after a million elements, so that a bug that reads
   * it to its end fails a test with wrong values instead of hanging it), which records its
   * thread and counts its `finally`.
   */
  def endless(v: Int, probe: Probe): Flow[Int] = Flow.usingEmit[Int] { emit =>
    probe.here()
    try for _ <- 0 until 1_000_000 do emit(v)
    finally probe.finallies.incrementAndGet(): Unit
  }

  /** The model of `interleave`: segments of `n`, left first; the rest of the longer one unless `eager`. */
  def model[T](l: List[T], r: List[T], n: Int, eager: Boolean): List[T] =
    val out = List.newBuilder[T]
    var (a, b) = (l, r)
    var done = false
    while !done do
      val (seg, rest) = a.splitAt(n)
      out ++= seg
      if seg.size < n then
        done = true
        if !eager then out ++= b
      else
        a = b
        b = rest
        // the side just read may be exactly empty: it ends when its next read finds it closed
    out.result()

  flowTest("zip pairs elements in order and ends with the shorter side"):
    assertEquals(
      Flow.range(0, 5).zip(Flow.range(10, 100)).runToList(),
      (0 until 5).map(i => (i, i + 10)).toList
    )
    assertEquals(
      Flow.range(0, 100).zip(Flow("a", "b")).runToList(),
      List((0, "a"), (1, "b"))
    )
    assertEquals(Flow.empty[Int].zip(Flow(1)).runToList(), Nil)
    assertEquals(Flow(1).zip(Flow.empty[Int]).runToList(), Nil)

  flowTest("zip with an endless right side cancels it at the end of the left and joins it"):
    val probe = Probe()
    assertEquals(Flow(1, 2, 3).zip(endless(7, probe)).runToList(), List((1, 7), (2, 7), (3, 7)))
    assertEquals(probe.finallies.get, 1, "the right side's finally did not run")
    probe.assertNoneAlive("zip, right side")

  flowTest("zip with an endless left side stops it at the end of the right"):
    val probe = Probe()
    assertEquals(endless(7, probe).zip(Flow(1, 2)).runToList(), List((7, 1), (7, 2)))
    assertEquals(probe.finallies.get, 1, "the left side's finally did not run")
    probe.assertNoneAlive("zip, left side")

  flowTest("zip stops the left side as soon as the right one has ended"):
    // the left side's emit that finds the right side closed must not return
    val emitted = java.util.concurrent.atomic.AtomicInteger()
    val left = Flow.usingEmit[Int] { emit =>
      for i <- 0 until 1000 do
        emit(i)
        emitted.incrementAndGet()
    }
    assertEquals(left.zip(Flow("a", "b")).runToList(), List((0, "a"), (1, "b")))
    assertEquals(emitted.get, 2, "the left side went on after the right side ended")

  flowTest("zip inside a take: both sides stopped"):
    val probe = Probe()
    val got = endless(1, probe).zip(endless(2, probe)).take(3).runToList()
    assertEquals(got, List((1, 2), (1, 2), (1, 2)))
    assertEquals(probe.finallies.get, 2)
    probe.assertNoneAlive("zip after take")

  flowTest("interleave takes segments in turns, left first, then the rest of the longer side"):
    val l = List(1, 2, 3, 4, 5, 6, 7)
    val r = List(10, 20, 30)
    for n <- Seq(1, 2, 3, 5, 10); eager <- Seq(false, true); (a, b) <- Seq((l, r), (r, l)) do
      assertEquals(
        Flow.fromIterable(a).interleave(Flow.fromIterable(b), n, eager).runToList(),
        model(a, b, n, eager),
        s"segmentSize $n, eagerComplete $eager, $a with $b"
      )

  flowTest("interleave, worked examples"):
    assertEquals(
      Flow(1, 2, 3).interleave(Flow(10, 20, 30, 40, 50), 2).runToList(),
      List(1, 2, 10, 20, 3, 30, 40, 50)
    )
    assertEquals(
      Flow(1, 2, 3).interleave(Flow(10, 20, 30, 40, 50), 2, eagerComplete = true).runToList(),
      List(1, 2, 10, 20, 3)
    )
    assertEquals(
      Flow(1, 2, 3, 4, 5).interleave(Flow(10), 1, eagerComplete = true).runToList(),
      List(1, 10, 2)
    )
    assertEquals(Flow(1, 2, 3, 4, 5).interleave(Flow(10), 1).runToList(), List(1, 10, 2, 3, 4, 5))
    assertEquals(Flow.empty[Int].interleave(Flow(1, 2)).runToList(), List(1, 2))
    assertEquals(Flow.empty[Int].interleave(Flow(1, 2), 1, eagerComplete = true).runToList(), Nil)

  flowTest("interleave with eagerComplete stops an endless other side and joins it"):
    val probe = Probe()
    val got = Flow(1, 2).interleave(endless(0, probe), 1, eagerComplete = true).runToList()
    assertEquals(got, List(1, 0, 2, 0))
    assertEquals(probe.finallies.get, 1, "the endless side's finally did not run")
    probe.assertNoneAlive("interleave, eager")

  flowTest("interleave inside a take stops both endless sides"):
    val probe = Probe()
    val got = endless(1, probe).interleave(endless(2, probe), 3).take(8).runToList()
    assertEquals(got, List(1, 1, 1, 2, 2, 2, 1, 1))
    assertEquals(probe.finallies.get, 2)
    probe.assertNoneAlive("interleave after take")

  test("bad arguments are refused when the operator is called"):
    val e = intercept[IllegalArgumentException](Flow(1).interleave(Flow(2), 0))
    assertEquals(e.getMessage, "interleave: segmentSize must be >= 1, was 0")
    val z = intercept[IllegalArgumentException](Flow(1).zip(null.asInstanceOf[Flow[Int]]))
    assertEquals(z.getMessage, "zip: other must not be null")
