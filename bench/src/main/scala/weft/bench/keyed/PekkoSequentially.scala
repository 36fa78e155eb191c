package weft.bench.keyed

import org.apache.pekko.actor.{Actor, ActorRef, ActorSystem, Props}
import scala.concurrent.{Future, Promise}
import scala.util.Try

/**
 * Peer: the actor-based keyed executor of seed 001, on Pekko 1.4.0 classic actors.
 *
 * A fixed pool of `CPU * 5` actors; a key is hashed to one of them (its bucket); the task runs
 * inside that actor, and its result travels back through a `Promise`. Keys that share a bucket
 * wait for each other, and a task that blocks holds a dispatcher thread.
 */
final class PekkoSequentially(system: ActorSystem, buckets: Int, name: String = "bucket"):
  import PekkoSequentially.*

  private val actors: Array[ActorRef] =
    Array.tabulate(buckets)(i => system.actorOf(Props(BucketActor()), s"$name-$i"))

  /** Runs `task` inside the actor of `key`'s bucket; the future completes with its result. */
  def apply[T](key: Any)(task: => T): Future[T] =
    val p = Promise[T]()
    actors(Math.floorMod(key.hashCode, buckets)) ! Job(() => task, p)
    p.future

/** The message and the actor of [[PekkoSequentially]]. */
object PekkoSequentially:

  /** The pool size of the seed's description. */
  def defaultBuckets: Int = Runtime.getRuntime.availableProcessors * 5

  /** One task and the promise of its result. */
  final case class Job[T](task: () => T, promise: Promise[T]):
    /** Runs the task and completes the promise (also on failure). */
    def run(): Unit = promise.complete(Try(task()))

  /** Runs each job it receives, one at a time: the per-bucket sequencing. */
  final class BucketActor extends Actor:
    def receive: Receive = { case j: Job[?] => j.run() }
