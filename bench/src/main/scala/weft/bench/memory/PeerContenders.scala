package weft.bench.memory

import java.util.concurrent.CountDownLatch
import PendingContenders.{Batch, Work, releaseBatch}

/**
 * The peers of workload `memory-pending-100k`: Pekko actors (tell), cats-effect and ZIO fibers,
 * Ox forks. Each keeps only what the runtime itself needs reachable (the `Deferred`, the
 * `Promise`, the channel), so that no benchmark-side collection is counted.
 */
object PeerContenders:

  /** The seed's actor sample: N messages told to a round-robin pool of 10 blocked actors. */
  object PekkoTell extends PendingContender:
    import org.apache.pekko.actor.{Actor, ActorSystem, Props}
    import org.apache.pekko.routing.RoundRobinPool

    /**
     * An actor that blocks on each [[Work]] message's gate (so the rest queue up in the
     * mailbox), then counts.
     */
    final class Blocked extends Actor:
      def receive: Receive =
        case Work(gate: CountDownLatch, finished) => gate.await(); finished.countDown()

    val id = "pekko-tell"
    def measure(n: Int): Nothing =
      val system = ActorSystem("memory")
      val router = system.actorOf(RoundRobinPool(10).props(Props(new Blocked)))
      around(n) { k =>
        val gate = CountDownLatch(1)
        val finished = CountDownLatch(k)
        var i = 0
        while i < k do
          router ! Work(gate, finished)
          i += 1
        Batch((system, router), () => gate.countDown(), finished)
      }(releaseBatch)

  /** cats-effect fibers suspended on one `Deferred`. */
  object CatsEffectFibers extends PendingContender:
    import cats.effect.{Deferred, IO}
    import cats.effect.unsafe.implicits.global
    import cats.syntax.all.*

    val id = "cats-effect-fiber"
    def measure(n: Int): Nothing =
      around(n) { k =>
        val ready, finished = CountDownLatch(k)
        val program =
          for
            d <- Deferred[IO, Int]
            _ <- (1 to k).toList.traverse_ { _ =>
              (IO(ready.countDown()) *> d.get *> IO(finished.countDown())).start
            }
            _ <- IO.blocking(ready.await())
          yield d
        val d = program.unsafeRunSync()
        Batch(d, () => d.complete(1).unsafeRunSync(), finished)
      }(releaseBatch)

  /** ZIO fibers (daemons, so they outlive the forking fiber) suspended on one `Promise`. */
  object ZioFibers extends PendingContender:
    import zio.{Promise, Runtime, Unsafe, ZIO}

    val id = "zio-fiber"
    private def run[A](z: ZIO[Any, Throwable, A]): A =
      Unsafe.unsafe(implicit u => Runtime.default.unsafe.run(z).getOrThrowFiberFailure())
    def measure(n: Int): Nothing =
      around(n) { k =>
        val ready, finished = CountDownLatch(k)
        val p = run:
          for
            p <- Promise.make[Nothing, Int]
            _ <- ZIO.foreachDiscard(1 to k) { _ =>
              (ZIO.succeed(ready.countDown()) *> p.await *> ZIO.succeed(finished.countDown())).forkDaemon
            }
            _ <- ZIO.attemptBlocking(ready.await())
          yield p
        Batch(p, () => run(p.succeed(1)), finished)
      }(releaseBatch)

  /** Ox forks blocked receiving from one rendezvous channel, inside `supervised`. */
  object OxForks extends PendingContender:
    import ox.*
    import ox.channels.Channel

    val id = "ox-fork"
    def measure(n: Int): Nothing =
      supervised:
        around(n) { k =>
          val ch = Channel.rendezvous[Int]
          val ready, finished = CountDownLatch(k)
          for _ <- 1 to k do
            fork:
              ready.countDown()
              ch.receive()
              finished.countDown()
          ready.await()
          Batch(ch, () => for i <- 1 to k do ch.send(i), finished)
        }(releaseBatch)

  /** All peer contenders, in report order. */
  val all: Seq[PendingContender] = Seq(PekkoTell, CatsEffectFibers, ZioFibers, OxForks)
