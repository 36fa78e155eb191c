package weft.shootout

/** The rerun check of `--repeat`: tallies and whether a verdict holds. */
class RepeatSuite extends munit.FunSuite:

  private val a = ("compose-3", 1, "weft costs at most 1.00x what `asyncAwait` costs per op")
  private val b = ("race-3", 1, "weft costs at most 1.25x what `awaitWinner` costs per op")

  test("counts every verdict per target, in run order"):
    val tallies = Repeat.tally(Seq(
      Seq(a -> "MET", b -> "INCONCLUSIVE"),
      Seq(a -> "MET", b -> "MISSED"),
      Seq(a -> "INCONCLUSIVE")
    ))
    assertEquals(
      tallies.map(_.labels),
      Seq(Seq("MET", "MET", "INCONCLUSIVE"), Seq("INCONCLUSIVE", "MISSED", "ABSENT"))
    )
    assertEquals(tallies.head.count("MET"), 2)
    assert(tallies.forall(!_.flipped))

  test("MET in one run and MISSED in another does not hold, and the report says so"):
    val tallies = Repeat.tally(Seq(Seq(a -> "MET"), Seq(a -> "MISSED"), Seq(a -> "MET")))
    assert(tallies.head.flipped)
    val md = Repeat.render(tallies, 3).mkString("\n")
    assert(md.contains("**1 target(s) were MET in one run and MISSED in another**"), md)
    assert(
      md.contains(
        "| compose-3 | 1 | weft costs at most 1.00x what `asyncAwait` costs per op | 2 | 1 | 0 | 0 | MET, MISSED, MET | **no** |"
      ),
      md
    )
    assertEquals(ujson.read(Repeat.json(tallies))(0)("flipped").bool, true)

  test("--repeat and a list of --only ids parse; bad counts are refused"):
    val o = Options.parse(Seq("--config", "x", "--repeat", "3", "--only", "compose-3,race-3"))
    assertEquals(
      o.map(o => (o.repeat, o.workloads.map(_.id))),
      Right((3, Seq("race-3", "compose-3")))
    )
    assert(Options.parse(Seq("--config", "x", "--repeat", "0")).isLeft)
    assert(Options.parse(Seq("--config", "x", "--only", "nope")).isLeft)
