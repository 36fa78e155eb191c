package weft.bench.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{CompletableFuture, CountDownLatch, TimeUnit}
import scala.concurrent.duration.*
import scala.util.{Failure, Success}
import weft.{Async, Future, Listener, awaitAll}
import weft.memcached.{Locator, MemcachedClient, MemcachedConfig, NodeNaming, Protocol}

/**
 * weft's client, one connection per server (its design), Ketama with `host:port` node names, TCP_NODELAY (weft's default), meta protocol
 * (`weft`, the default) or classic text commands (`weftClassic`: a multiget is then one
 * `get k1 ... k50` line where meta sends a quiet `mg` per key, which the server's CPU per op
 * tells apart).
 * `weftInScope` is the same client driven from inside one scope ([[setGetInScope]],
 * [[multiGetInScope]]), so the row shows what entering `Async.blocking` per op costs.
 * The client's fibers live in a scope held open by an owner virtual thread until [[close]].
 * A `setGet` op enters `Async.blocking` and runs the four set-then-get pairs as four futures,
 * so they are pipelined on the connection as the peers' asynchronous calls are; each get waits
 * for its set's reply (the peers' gets do not), which costs weft, not its peers.
 */
final class WeftContender(servers: Seq[String], classic: Boolean) extends McContender:
  import McContender.*

  private val ttl = TtlSeconds.seconds
  private val stop = CountDownLatch(1)
  private val opened = CompletableFuture[MemcachedClient]()
  private val config = MemcachedConfig(
    servers,
    protocol = if classic then Protocol.Classic else Protocol.Meta,
    locator = Locator.Ketama(NodeNaming.HostPort),
    deadline = TimeoutMillis.millis,
    connectTimeout = 10.seconds,
    livenessTimeout = TimeoutMillis.millis
  )
  private val owner = Thread.ofVirtual().start { () =>
    try
      Async.blocking:
        val c = MemcachedClient.open(config)
        opened.complete(c)
        stop.await()
        c.close()
    catch case t: Throwable => opened.completeExceptionally(t)
  }
  private val client = opened.get(30, TimeUnit.SECONDS)

  // set returns once the value is stored, and throws otherwise (as the other contenders check)
  private def store(key: String, value: String)(using Async): Unit =
    client.set(key, value.getBytes(UTF_8), ttl = ttl)

  def set(key: String, value: String): Unit = Async.blocking(store(key, value))

  def setGet(keys: Array[String], values: Array[String]): Unit =
    Async.blocking(setGetInScope(keys, values))

  /** [[setGet]] inside the caller's scope: what `weftInScope` repeats without entering one. */
  def setGetInScope(keys: Array[String], values: Array[String])(using Async): Unit =
    val pairs = keys.indices.map: i =>
      Future:
        store(keys(i), values(i))
        check(keys(i), values(i), client.get(keys(i)).toOption.map(_.string).orNull)
    pairs.awaitAll

  def get(key: String): String = Async.blocking(client.get(key).toOption.map(_.string).orNull)

  /**
   * weft's asynchronous get: one scope around `body`, as a user would enter one around a loop
   * of calls, and in it each get is `client.pipelined.get` (no fiber per request) with a
   * listener the connection's reader completes.
   */
  override def asyncGets[A](body: AsyncGet => A): A =
    Async.blocking:
      body: (key, done) =>
        client.pipelined.get(key).onComplete(Listener((r, _) =>
          r match
            case Success(g) => done(g.toOption.map(_.string).orNull, null)
            case Failure(e) => done(null, e)
        ))

  def multiGet(keys: KeySet): Unit = Async.blocking(multiGetInScope(keys))

  /** [[multiGet]] inside the caller's scope. */
  def multiGetInScope(keys: KeySet)(using Async): Unit =
    val r = client.getMulti(keys.keys)
    if r.failures.nonEmpty then throw IllegalStateException(s"multiget failed: ${r.failures.head}")
    keys.keys.foreach(k => check(k, valueOf(k), r.hits.get(k).map(_.string).orNull))

  def close(): Unit =
    stop.countDown()
    owner.join(10_000)
