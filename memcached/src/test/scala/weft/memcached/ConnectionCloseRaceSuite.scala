package weft.memcached

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import weft.Async

/**
 * A connection closed while callers submit to it: every request submitted ends (failed with the
 * close's reason), none is left in a queue nobody drains. The window is a submit's few steps
 * between its check of the connection and its queueing, so the test closes the connection
 * while two threads submit as fast as they can, many times over.
 */
class ConnectionCloseRaceSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def testDeadlineSeconds: Int = 120

  test("requests submitted while the connection closes all end"):
    val server = java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress)
    // accepts and reads nothing: requests pile up in socket buffers, in flight and queued
    val acceptor = Thread.ofPlatform().daemon().start: () =>
      try while true do server.accept()
      catch case _: java.io.IOException => ()
    val config = MemcachedConfig(Seq(s"127.0.0.1:${server.getLocalPort}"))
    try
      Async.blocking:
        var stranded = 0
        for round <- 0 until 200 do
          val counters = NodeCounters(s"round $round")
          val c = Connection.open("127.0.0.1", server.getLocalPort, config, counters)
          val sent = ConcurrentLinkedQueue[Request[?]]()
          val go = CountDownLatch(1)
          val submitters = (0 until 2).map: _ =>
            Thread.ofPlatform().start: () =>
              go.await()
              var open = true
              while open do
                val r = VersionRequest()
                try
                  c.submit(r)
                  sent.add(r)
                catch case _: MemcachedException => open = false
          go.countDown()
          Thread.sleep(0, 200_000)
          c.close(ConnectionLost("closed by the test"))
          submitters.foreach(_.join())
          // the writer's body may still be ending (a cancelled future completes at once): give
          // it time; a request stranded in the closed queue never ends
          TestSupport.awaitUntil(sent.asScala.forall(_.isDone), seconds = 5)
          stranded += sent.asScala.count(!_.isDone)
        assertEquals(stranded, 0, "requests left pending in a closed connection's queue")
    finally
      server.close()
      acceptor.join()
