package weft.bench.keyed

import cats.effect.{FiberIO, IO}
import cats.effect.unsafe.IORuntime
import com.typesafe.config.ConfigFactory
import org.apache.pekko.actor.ActorSystem
import scala.concurrent.{Await, ExecutionContext, Future as SFuture}
import scala.concurrent.duration.{Duration, DurationInt}
import weft.{Async, Future, await}
import weft.keyed.Sequentially

/**
 * A keyed executor as [[HandoffLatency]] drives it: `measure` runs `rounds` on the contender's
 * own kind of thread (entered once), and each round submits one batch and waits for all of it.
 */
trait HandoffContender:

  /** The contender's name in the report. */
  def id: String

  /**
   * Runs `round` until it returns false, on the contender's thread; `batch(keys, task)` inside
   * it submits task `i` under key `keys(i)` for every `i` (calling `submitted(i)` just before)
   * and returns when every task has finished.
   */
  def measure(round: HandoffContender.Batcher => Boolean): Unit

/** The contenders of the `sequentially-handoff-*` workloads. */
object HandoffContender:

  /** Submits one batch and waits for it. */
  trait Batcher:
    /** Submits `task(i)` under `keys(i)` for all `i`, `submitted(i)` first; waits for all. */
    def batch(keys: Array[Int], submitted: Int => Unit, task: Int => Unit): Unit

  /** A batcher over an executor returning `scala.concurrent.Future`s, awaited in order. */
  private def futureBatcher(submit: (Int, () => Unit) => SFuture[Unit]): Batcher =
    (keys, submitted, task) =>
      val fs = new Array[SFuture[Unit]](keys.length)
      var i = 0
      while i < keys.length do
        val n = i
        submitted(n)
        fs(n) = submit(keys(n), () => task(n))
        i += 1
      fs.foreach(Await.result(_, Duration.Inf))

  /** weft's `Sequentially`: one queue per key, `submit` then `await`, all in one scope. */
  object WeftSequentially extends HandoffContender:
    val id = "weft"
    def measure(round: Batcher => Boolean): Unit = _root_.weft.bench.OnVirtualThread.blocking:
      val seq = Sequentially[Int]()
      val b: Batcher = (keys, submitted, task) =>
        val fs = new Array[Future[Unit]](keys.length)
        var i = 0
        while i < keys.length do
          val n = i
          submitted(n)
          fs(n) = seq.submit(keys(n))(task(n))
          i += 1
        i = 0
        while i < keys.length do
          fs(i).await
          i += 1
      while round(b) do ()

  /** Pekko bucket actors (`buckets` of them, or one per key); results through promises. */
  final class Pekko(val id: String, buckets: Int) extends HandoffContender:
    def measure(round: Batcher => Boolean): Unit =
      val config =
        ConfigFactory.parseString("pekko.loglevel = WARNING").withFallback(ConfigFactory.load())
      val system = ActorSystem("handoff", config)
      val pekko = PekkoSequentially(system, buckets)
      try
        SequentiallyContenders.onVirtualThread:
          val b = futureBatcher((key, task) => pekko(key)(task()))
          while round(b) do ()
      finally Await.result(system.terminate(), 1.minute)

  /** A `scala.concurrent.Future` chain per key on the global execution context. */
  object FutureChain extends HandoffContender:
    val id = "futureChain"
    def measure(round: Batcher => Boolean): Unit =
      val chain = FutureChainSequentially(using ExecutionContext.global)
      SequentiallyContenders.onVirtualThread:
        val b = futureBatcher((key, task) => chain(key)(task()))
        while round(b) do ()

  /**
   * Cats Effect `Semaphore(1)` buckets (`buckets` of them, or one per key), one fiber per task,
   * all joined; one `unsafeRunSync` per batch.
   */
  final class Cats(val id: String, buckets: Int) extends HandoffContender:
    def measure(round: Batcher => Boolean): Unit =
      given runtime: IORuntime = cats.effect.unsafe.implicits.global
      val cs = CatsSequentially.create(buckets).unsafeRunSync()
      val b: Batcher = (keys, submitted, task) =>
        def startAll(i: Int, acc: List[FiberIO[Unit]]): IO[List[FiberIO[Unit]]] =
          if i == keys.length then IO.pure(acc)
          else
            IO(submitted(i)) >> cs.applyF(keys(i))(IO(task(i))).start.flatMap(f =>
              startAll(i + 1, f :: acc)
            )
        startAll(0, Nil).flatMap(_.traverseJoin).unsafeRunSync()
      while round(b) do ()

  extension (fs: List[FiberIO[Unit]])
    private def traverseJoin: IO[Unit] =
      fs.foldLeft(IO.unit)((acc, f) => acc >> f.joinWithNever)

  /** Every contender, for `keys` distinct keys. */
  def all(keys: Int): Seq[HandoffContender] = Seq(
    WeftSequentially,
    Pekko("pekkoActors", PekkoSequentially.defaultBuckets),
    Pekko("pekkoActorsPerKey", keys),
    Cats("catsApplyFConcurrent", PekkoSequentially.defaultBuckets),
    Cats("catsApplyFConcurrentPerKey", keys),
    FutureChain
  )
