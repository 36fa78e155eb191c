package weft

import scala.util.Success

/** The README's example, as written there: it must keep working. */
class ReadmeSuite extends munit.FunSuite:

  test("README example: two futures summed in a scope"):
    val total = Async.blocking:
      val a = Future { Thread.sleep(100); 10 }
      val b = Future { Thread.sleep(200); 40 }
      a.await + b.await
    assertEquals(total, 50)

  test("README example: a race"):
    val winner = Async.blocking:
      Async.await(Async.race(Future { Thread.sleep(50); "slow" }, Future("fast")))
    assertEquals(winner, Success("fast"))
