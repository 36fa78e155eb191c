package weft.memcached

import scala.concurrent.duration.*
import weft.await
import weft.testkit.*
import FakeServer.line

/**
 * The client's deadlines and liveness checks count the support's clock: inside the test kit's
 * virtual time, against a server that reads every request and never answers, they fire at
 * exactly their virtual time. The kit is told that waits on the network count as waiting
 * (`outsideWaitsHoldTime = false`), or the connection's reader, blocked in a socket read, would
 * hold the clock still.
 */
class MemcachedVirtualTimeSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val silentPeers = VirtualTime(VirtualTimeConfig(outsideWaitsHoldTime = false))

  /** Reads request lines and never answers. */
  private val silent: FakeServer.Handler = c => while line(c) != null do ()

  test("a call's deadline against a silent server fires at exactly its virtual time"):
    silentPeers.run:
      FakeServer.withFake(silent): fake =>
        val client =
          MemcachedClient.open(MemcachedConfig(Seq(fake.address), livenessTimeout = 1.hour))
        try
          val start = currentTime
          intercept[Timeout](client.get("k", deadline = 10.seconds))
          assertEquals(currentTime - start, 10.seconds)
        finally client.close()

  test("the liveness check closes a silent connection at its first check past the limit"):
    silentPeers.run:
      FakeServer.withFake(silent): fake =>
        // checks every limit / 4 = 500 ms; a request written at t is stalled past 2 s at t + 2.5 s
        val client =
          MemcachedClient.open(MemcachedConfig(Seq(fake.address), livenessTimeout = 2.seconds))
        try
          val start = currentTime
          val e = intercept[ConnectionLost](client.get("k", deadline = 1.hour))
          assert(e.getMessage.contains("liveness"), e.getMessage)
          assertEquals(currentTime - start, 2500.millis)
        finally client.close()

  test("with nothing pending but a silent peer, the kit fails naming each fiber's socket wait"):
    // no timer anywhere: the scope waits for the outside world, and after the blocked limit
    // reports every fiber waiting on it, with the JDK call it waits in
    val e = intercept[BlockedFiberException]:
      VirtualTime(VirtualTimeConfig(outsideWaitsHoldTime = false, blockedLimit = 200.millis)).run:
        FakeServer.withFake(silent): fake =>
          val c = weft.io.TcpConnection.connect("127.0.0.1", fake.port).await
          try
            c.write(java.nio.ByteBuffer.wrap("hello\r\n".getBytes)).await
            c.readLine().await
          finally c.close()
    assert(e.fibers.nonEmpty, e.getMessage)
    for f <- e.fibers do
      assert(f.blockedInJdk, f.toString)
      assert(f.waitsOn.startsWith("the outside world, in a JDK call ("), f.waitsOn)
