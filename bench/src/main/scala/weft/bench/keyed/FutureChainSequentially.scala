package weft.bench.keyed

import java.util.concurrent.ConcurrentHashMap
import scala.concurrent.{ExecutionContext, Future, Promise}
import scala.util.Try

/**
 * Peer: a `scala.concurrent.Future` chain per key.
 *
 * The map holds each active key's last future; a new task atomically replaces it and runs when
 * the previous one completes (on the execution context). When a task's future completes and is
 * still its key's last one, the key is removed, so idle keys leave nothing behind.
 */
final class FutureChainSequentially(using ec: ExecutionContext):
  private val tails = ConcurrentHashMap[Any, Future[Any]]()

  /** Runs `task` after the previous task of `key`; the future completes with its result. */
  def apply[T](key: Any)(task: => T): Future[T] =
    val p = Promise[T]()
    val mine = p.future
    val prev = tails.put(key, mine)
    if prev == null then ec.execute(() => p.complete(Try(task)))
    else prev.onComplete(_ => p.complete(Try(task)))
    mine.onComplete(_ => tails.remove(key, mine))
    mine

  /** The number of keys with a task queued or running. */
  def activeKeys: Int = tails.size
