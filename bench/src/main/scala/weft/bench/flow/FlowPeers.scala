package weft.bench.flow

import com.typesafe.config.ConfigFactory
import org.apache.pekko.actor.ActorSystem
import org.apache.pekko.stream.Materializer

import scala.concurrent.duration.*
import scala.concurrent.{Await, ExecutionContext, Future}

/**
 * Pekko Streams as its users set it up: one `ActorSystem` and one `Materializer` per trial
 * (never per run), every run materialised on them and awaited by the calling thread.
 */
final class PekkoStreams(name: String):
  private val config =
    ConfigFactory.parseString("pekko.loglevel = WARNING").withFallback(ConfigFactory.load())

  /** The actor system the streams run on. */
  val system: ActorSystem = ActorSystem(name, config)

  /** The materializer every run of the trial uses. */
  given materializer: Materializer = Materializer(system)

  /** The system's default dispatcher, where `mapAsync`'s futures run. */
  given dispatcher: ExecutionContext = system.dispatcher

  /** Waits for a materialised run's value; a run that never ends fails the benchmark. */
  def await[T](run: Future[T]): T = Await.result(run, 5.minutes)

  /** Stops the actor system. */
  def close(): Unit =
    val _ = Await.result(system.terminate(), 1.minute)

/** What every flow benchmark checks after each run: the value each contender must compute. */
object FlowChecks:

  /**
   * Throws unless `got` is `expected`: a contender that drops, repeats or reorders elements fails
   * its benchmark instead of reporting a figure for less work.
   */
  def expect(workload: String, contender: String, got: Long, expected: Long): Long =
    if got != expected then
      throw IllegalStateException(
        s"$workload: $contender computed $got where every contender must compute $expected"
      )
    got

  /** The order-sensitive fold every ordered workload uses: a polynomial hash of the sequence. */
  inline def hash(acc: Long, x: Int): Long = acc * 31 + x
