package weft.bench.memory

/** How the memory runner scores a contender from its JVMs' figures. */
class MemoryShootoutSuite extends munit.FunSuite:

  private def parse(json: String): (Option[Double], Option[Double]) =
    val v = ujsonLike(json)
    (v.get("score"), v.get("error"))

  // The row is a flat JSON object of numbers and nulls: enough to read it without a library.
  private def ujsonLike(json: String): Map[String, Double] =
    """"(\w+)": ([-0-9.E]+)""".r.findAllMatchIn(json).map(m => m.group(1) -> m.group(2).toDouble)
      .toMap

  test("several JVMs: the mean and a 95% Student-t half-width over them") {
    val (score, error) =
      parse(MemoryShootout.row("weft", Seq(Some(800.0), Some(900.0), Some(1000.0))))
    assertEqualsDouble(score.get, 900.0, 1e-9)
    // sd = 100, n = 3, t(2) = 4.303: 4.303 * 100 / sqrt(3)
    assertEqualsDouble(error.get, 4.303 * 100 / math.sqrt(3), 1e-6)
  }

  test("one JVM: its figure and no error (a point, judged as such)") {
    val row = MemoryShootout.row("weft", Seq(Some(850.0)))
    assertEquals(parse(row), (Some(850.0), None))
    assert(row.contains("\"error\": null"), row)
  }

  test("a JVM that failed (out of memory) fails the contender, whatever the others measured") {
    val row = MemoryShootout.row("weft", Seq(Some(850.0), None, Some(860.0)))
    assert(row.contains("\"score\": null"), row)
    assert(row.contains("\"contender\": \"weft\""), row)
  }

  test("no JVM at all is a failure, not a score") {
    assert(MemoryShootout.row("weft", Nil).contains("\"score\": null"))
  }

  test("every mode measures in more than one JVM except smoke") {
    for million <- Seq(false, true) do
      assertEquals(MemoryShootout.forks("smoke", million), 1)
      assert(MemoryShootout.forks("quick", million) >= 3)
      assert(MemoryShootout.forks("full", million) >= MemoryShootout.forks("quick", million))
  }
