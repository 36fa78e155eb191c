package weft.testing

/**
 * Runs every test of the suite it is mixed into under a deadline: a test that hangs (a future
 * that is never completed, an await never woken) fails after [[testDeadlineSeconds]] with every
 * thread's stack, instead of hanging the whole run.
 */
trait Deadlined extends munit.FunSuite, StressChecks:

  /** How long one test may take. */
  def testDeadlineSeconds: Int = 30

  override def munitTestTransforms: List[TestTransform] =
    super.munitTestTransforms :+ TestTransform(
      "under a deadline",
      t =>
        t.withBody { () =>
          var result: scala.concurrent.Future[Any] | Null = null
          withinDeadline(testDeadlineSeconds, "weft-deadlined-") { result = t.body() }
          result.nn
        }
    )
