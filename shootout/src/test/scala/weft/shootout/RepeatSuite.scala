package weft.shootout

/** The rerun check of `--repeat`: tallies and whether a verdict holds. */
class RepeatSuite extends munit.FunSuite:

  private val a = ("compose-3", 1, "weft costs at most 1.00x what `asyncAwait` costs per op")
  private val b = ("race-3", 1, "weft costs at most 1.25x what `awaitWinner` costs per op")

  test("counts every verdict per target, in run order"):
    val tallies = Repeat.tally(Seq(
      Seq(a -> Repeat.Run("MET"), b -> Repeat.Run("INCONCLUSIVE")),
      Seq(a -> Repeat.Run("MET"), b -> Repeat.Run("MISSED")),
      Seq(a -> Repeat.Run("INCONCLUSIVE"))
    ))
    assertEquals(
      tallies.map(_.labels),
      Seq(Seq("MET", "MET", "INCONCLUSIVE"), Seq("INCONCLUSIVE", "MISSED", "ABSENT"))
    )
    assertEquals(tallies.head.count("MET"), 2)
    assert(tallies.forall(!_.flipped))

  test("MET in one run and MISSED in another does not hold, and the report says so"):
    val tallies = Repeat.tally(Seq(
      Seq(a -> Repeat.Run("MET")),
      Seq(a -> Repeat.Run("MISSED")),
      Seq(a -> Repeat.Run("MET"))
    ))
    assert(tallies.head.flipped)
    val md = Repeat.render(tallies, 3).mkString("\n")
    assert(md.contains("**1 target(s) were MET in one run and MISSED in another**"), md)
    assert(
      md.contains(
        "| compose-3 | 1 | weft costs at most 1.00x what `asyncAwait` costs per op | 2 | 1 | 0 | 0 | MET, MISSED, MET | **no** |  |"
      ),
      md
    )
    assertEquals(ujson.read(Repeat.json(tallies))(0)("flipped").bool, true)

  test("each run's speedup and interval is kept beside its verdict"):
    val w = Workloads.compose3.copy(threads = Seq(1))
    def row(c: String, low: Double, high: Double) = Fixtures.intervalRow(w, c, low, high)
    val run1 = Repeat.verdicts(Seq(w), Seq(row("weft", 90, 100), row("asyncAwait", 110, 130)))
    val run2 = Repeat.verdicts(Seq(w), Seq(row("weft", 80, 120), row("asyncAwait", 95, 115)))
    val t = Repeat.tally(Seq(run1, run2)).head
    assertEquals(t.labels, Seq("MET", "INCONCLUSIVE"))
    assert(t.speedups.head.contains("95%: 1.10x to 1.44x"), t.speedups)
    val md = Repeat.render(Seq(t), 2).mkString("\n")
    assert(md.contains(t.speedups.mkString("; ")), md)
    assertEquals(ujson.read(Repeat.json(Seq(t)))(0)("speedups").arr.size, 2)

  test("--repeat and a list of --only ids parse; bad counts are refused"):
    val o = Options.parse(Seq("--config", "x", "--repeat", "3", "--only", "compose-3,race-3"))
    assertEquals(
      o.map(o => (o.repeat, o.workloads.map(_.id))),
      Right((3, Seq("race-3", "compose-3")))
    )
    assert(Options.parse(Seq("--config", "x", "--repeat", "0")).isLeft)
    assert(Options.parse(Seq("--config", "x", "--only", "nope")).isLeft)
