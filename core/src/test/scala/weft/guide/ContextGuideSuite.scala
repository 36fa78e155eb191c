package weft.guide

import weft.*

/** The `ForkLocal` example of docs/guide/context.md, run (the MDC one is in weft-slf4j). */
class ContextGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("context: a ForkLocal binding follows the futures of its block"):
    // example: context-forklocal
    val requestId = ForkLocal("none")

    val seen = Async.blocking:
      requestId.where("r-42"):
        val child = Future:
          val grandchild = Future(requestId.get)
          (requestId.get, grandchild.await)
        child.await // ("r-42", "r-42")
    val after = requestId.get // "none": the binding ended with the block
    // end
    assertEquals(seen, ("r-42", "r-42"))
    assertEquals(after, "none")
