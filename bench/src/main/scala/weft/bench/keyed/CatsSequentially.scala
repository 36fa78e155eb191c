package weft.bench.keyed

import cats.effect.IO
import cats.effect.std.Semaphore
import cats.syntax.all.*

/**
 * Peer: the Cats Effect keyed executor of seed 001.
 *
 * `CPU * 5` buckets, each a `Semaphore(1)`; a key is hashed to a bucket and `applyF(key)(task)`
 * is `permit.use(task)`. Keys sharing a bucket wait for each other.
 */
final class CatsSequentially private (buckets: Vector[Semaphore[IO]]):

  /** Runs `task` while holding the permit of `key`'s bucket. */
  def applyF[T](key: Any)(task: IO[T]): IO[T] =
    buckets(Math.floorMod(key.hashCode, buckets.size)).permit.use(_ => task)

/** Creating a [[CatsSequentially]]. */
object CatsSequentially:

  /** `n` buckets, each a fresh `Semaphore(1)`. */
  def create(n: Int): IO[CatsSequentially] =
    Vector.fill(n)(Semaphore[IO](1)).sequence.map(new CatsSequentially(_))
