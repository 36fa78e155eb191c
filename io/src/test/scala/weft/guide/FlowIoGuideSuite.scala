package weft.guide

import weft.*
import weft.flow.Flow
import weft.io.*

/** The IO example of docs/guide/flow.md, run. */
class FlowIoGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("flow: lines over TCP, both ways"):
    // example: flow-tcp
    val shouted = Async.blocking:
      PIOHelper.withTcpServer(0): server =>
        val shouter = Future: // upper-cases each line it reads until the client is done
          val conn = server.accept().await
          try conn.writeLines(conn.lines().map(_.toUpperCase))
          finally conn.close()
        PIOHelper.withTcpConnection("127.0.0.1", server.localPort): c =>
          c.writeLines(Flow("hello", "flow")): Unit // each line and "\r\n", as it comes
          c.shutdownOutput() // no more lines: the server's flow of lines ends
          c.lines().runToList() // until the server closes: List(HELLO, FLOW)
    // end
    assertEquals(shouted, List("HELLO", "FLOW"))
