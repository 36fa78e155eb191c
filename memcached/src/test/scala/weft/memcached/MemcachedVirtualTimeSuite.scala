package weft.memcached

import scala.concurrent.duration.*
import weft.{Async, await}
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

  /** Runs `body` on virtual time with a client of a silent server, its liveness limit given. */
  private def onSilentServer(liveness: FiniteDuration)(body: (
      VirtualClock,
      Async
  ) ?=> MemcachedClient => Unit): Unit =
    silentPeers.run:
      FakeServer.withFake(silent): fake =>
        TestSupport.withClient(MemcachedConfig(Seq(fake.address), livenessTimeout = liveness))(body)

  test("a call's deadline against a silent server fires at exactly its virtual time"):
    onSilentServer(liveness = 1.hour): client =>
      val start = currentTime
      intercept[Timeout](client.get("k", deadline = 10.seconds))
      assertEquals(currentTime - start, 10.seconds)

  test("a call with the default deadline fails by its sweep, within one tick of it"):
    // the connection sweeps every deadline / 16; the call is due 10 s after it starts
    silentPeers.run:
      FakeServer.withFake(silent): fake =>
        val config =
          MemcachedConfig(Seq(fake.address), deadline = 10.seconds, livenessTimeout = 1.hour)
        TestSupport.withClient(config): client =>
          val start = currentTime
          val pending = client.pipelined.get("k") // nobody waits: the sweep fails it
          intercept[Timeout](client.get("k"))
          val took = currentTime - start
          assert(took >= 10.seconds && took <= 10.seconds + 625.millis, took.toString)
          assert(pending.poll().exists(_.failed.toOption.exists(_.isInstanceOf[Timeout])))
          assertEquals(client.nodeStats.head.timeouts, 2L)

  test("the liveness check closes a silent connection at its first check past the limit"):
    // checks every limit / 4 = 500 ms; a request written at t is stalled past 2 s at t + 2.5 s
    onSilentServer(liveness = 2.seconds): client =>
      val start = currentTime
      val e = intercept[ConnectionLost](client.get("k", deadline = 1.hour))
      assert(e.getMessage.contains("liveness"), e.getMessage)
      assertEquals(currentTime - start, 2500.millis)

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
