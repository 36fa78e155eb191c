package weft.bench.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{CompletableFuture, CountDownLatch, TimeUnit}
import scala.concurrent.duration.*
import scala.util.{Failure, Success}
import weft.{Async, Future, Listener, awaitAll}
import weft.memcached.{GetResult, Locator, MemcachedClient, MemcachedConfig, NodeNaming, Protocol}

/**
 * weft's client, one connection per server (its design), Ketama with `host:port` node names,
 * TCP_NODELAY (weft's default), meta protocol (`weft`, the default) or classic text commands
 * (`weftClassic`: a multiget is then one `get k1 ... k50` line where meta sends a quiet `mg`
 * per key, which the server's CPU per op tells apart). `weftInScope` is the same client driven
 * from inside one scope ([[setGetInScope]], [[multiGetInScope]]), so the row shows what
 * entering `Async.blocking` per op costs. The client's fibers live in a scope held open by an
 * owner virtual thread until [[close]].
 *
 * A `setGet` op enters `Async.blocking` and issues its requests as the peers' asynchronous
 * rows do: every `client.pipelined.set`, then every `client.pipelined.get` (each returns a
 * future at once and starts no fiber; a get sent right behind its key's set reads the value
 * just stored), then it awaits them all and checks each value. With `direct` (the `weftDirect`
 * row) it runs the set-then-get pairs as a future each instead, with the direct calls, each get
 * waiting for its set's reply as direct-style code does.
 */
final class WeftContender(servers: Seq[String], classic: Boolean, direct: Boolean = false)
    extends McContender:
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
    if direct then setGetDirect(keys, values) else setGetPipelined(keys, values)

  /** The peers' shape: all sets, then all gets, sent without waiting; then every reply. */
  private def setGetPipelined(keys: Array[String], values: Array[String])(using Async): Unit =
    val calls = client.pipelined
    val n = keys.length
    val sets = new Array[Future[Unit]](n)
    val gets = new Array[Future[GetResult]](n)
    var i = 0
    while i < n do
      sets(i) = calls.set(keys(i), values(i).getBytes(UTF_8), ttl = ttl)
      i += 1
    i = 0
    while i < n do
      gets(i) = calls.get(keys(i))
      i += 1
    // every request is on the wire: the replies come back in order, so awaiting in order
    // waits once for the last; a set not stored fails its future (ServerError), thrown here
    i = 0
    while i < n do
      sets(i).value
      check(keys(i), values(i), gets(i).value.toOption.map(_.string).orNull)
      i += 1

  /** The direct style: a future per key, each storing its value then reading it back. */
  private def setGetDirect(keys: Array[String], values: Array[String])(using Async): Unit =
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
