package weft.bench.memory

import java.util.concurrent.CountDownLatch

/**
 * The peers of workload `memory-pending-100k`: Pekko actors (tell), cats-effect and ZIO fibers,
 * Ox forks. Each keeps only what the runtime itself needs reachable (the `Deferred`, the
 * `Promise`, the channel), so that no benchmark-side collection is counted.
 */
object PeerContenders:

  /** The seed's actor sample: N messages told to a round-robin pool of 10 sleeping actors. */
  object PekkoTell extends PendingContender:
    import org.apache.pekko.actor.{Actor, ActorSystem, Props}
    import org.apache.pekko.routing.RoundRobinPool

    /** An actor that sleeps on its first message, so the rest stay queued in its mailbox. */
    final class Sleeper extends Actor:
      def receive: Receive = { case _ => Thread.sleep(Long.MaxValue / 2) }

    val id = "pekko-tell"
    def measure(n: Int): String =
      val system = ActorSystem("memory")
      val router = system.actorOf(RoundRobinPool(10).props(Props(new Sleeper)))
      around(n):
        var i = 0
        while i < n do
          router ! "do it"
          i += 1
        (system, router)

  /** cats-effect fibers suspended on one `Deferred`. */
  object CatsEffectFibers extends PendingContender:
    import cats.effect.{Deferred, IO}
    import cats.effect.unsafe.implicits.global
    import cats.syntax.all.*

    val id = "cats-effect-fiber"
    def measure(n: Int): String =
      IO.unit.start.flatMap(_.join).unsafeRunSync()
      around(n):
        val ready = CountDownLatch(n)
        val program =
          for
            d <- Deferred[IO, Int]
            _ <- (1 to n).toList.traverse_(_ => (IO(ready.countDown()) *> d.get).start)
            _ <- IO.blocking(ready.await())
          yield d
        program.unsafeRunSync()

  /** ZIO fibers (daemons, so they outlive the forking fiber) suspended on one `Promise`. */
  object ZioFibers extends PendingContender:
    import zio.{Promise, Runtime, Unsafe, ZIO}

    val id = "zio-fiber"
    def run[A](z: ZIO[Any, Throwable, A]): A =
      Unsafe.unsafe(implicit u => Runtime.default.unsafe.run(z).getOrThrowFiberFailure())
    def measure(n: Int): String =
      run(ZIO.succeed(1).fork.flatMap(_.join))
      around(n):
        val ready = CountDownLatch(n)
        run:
          for
            p <- Promise.make[Nothing, Int]
            _ <- ZIO.foreachDiscard(1 to n)(_ =>
              (ZIO.succeed(ready.countDown()) *> p.await).forkDaemon
            )
            _ <- ZIO.attemptBlocking(ready.await())
          yield p

  /** Ox forks blocked receiving from one rendezvous channel, inside `supervised`. */
  object OxForks extends PendingContender:
    import ox.*
    import ox.channels.Channel

    val id = "ox-fork"
    def measure(n: Int): String =
      supervised:
        fork(1).join()
        val json = around(n):
          val ch = Channel.rendezvous[Int]
          val ready = CountDownLatch(n)
          for _ <- 1 to n do fork { ready.countDown(); ch.receive() }
          ready.await()
          ch
        // The scope would wait for its forks forever: report from inside it.
        MemoryHarness.emit(json)

  /** All peer contenders, in report order. */
  val all: Seq[PendingContender] = Seq(PekkoTell, CatsEffectFibers, ZioFibers, OxForks)
