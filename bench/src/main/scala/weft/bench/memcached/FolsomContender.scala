package weft.bench.memcached

import java.util.concurrent.{CompletionStage, TimeUnit}
import com.spotify.folsom.{MemcacheClient, MemcacheClientBuilder, MemcacheStatus}

/**
 * folsom 1.21.0 as its users set it up: one connection (`withConnections(1)`, its default),
 * ascii or binary, request timeout long enough never to fire, netty's TCP_NODELAY (folsom sets
 * it), its default batching kept. The string client stores UTF-8 like the others; the
 * serialising client (Java serialisation of the String, as the seed used) is an extra row. A
 * `setGet` op issues the eight calls asynchronously, then waits for all. Its asynchronous get
 * ([[asyncGets]]) is `get` with `whenComplete` on the `CompletionStage` it returns, run where
 * folsom completes it (its default reply executor).
 */
final class FolsomContender(host: String, port: Int, binary: Boolean, serialising: Boolean)
    extends McContender:
  import McContender.*

  private val client: MemcacheClient[String] =
    val b =
      if serialising then MemcacheClientBuilder.newSerializableObjectClient[String]()
      else MemcacheClientBuilder.newStringClient()
    b.withAddress(host, port)
      .withConnections(1)
      .withRequestTimeoutMillis(TimeoutMillis)
      .withConnectionTimeoutMillis(10_000L)
    val c = if binary then b.connectBinary() else b.connectAscii()
    c.awaitConnected(10, TimeUnit.SECONDS)
    c

  private def done[T](s: CompletionStage[T]): T =
    s.toCompletableFuture.get(TimeoutMillis, TimeUnit.MILLISECONDS)

  private def stored(key: String, s: CompletionStage[MemcacheStatus]): Unit =
    val status = done(s)
    if status != MemcacheStatus.OK then throw IllegalStateException(s"set $key: $status")

  def set(key: String, value: String): Unit = stored(key, client.set(key, value, TtlSeconds))

  def setGet(keys: Array[String], values: Array[String]): Unit =
    val sets = keys.indices.map(i => client.set(keys(i), values(i), TtlSeconds))
    val gets = keys.indices.map(i => client.get(keys(i)))
    keys.indices.foreach: i =>
      stored(keys(i), sets(i))
      check(keys(i), values(i), done(gets(i)))

  def get(key: String): String = done(client.get(key))

  override def asyncGets[A](body: AsyncGet => A): A =
    body: (key, done) =>
      client.get(key).whenComplete((v, t) => if t == null then done(v, null) else done(null, t))
      ()

  def multiGet(keys: KeySet): Unit =
    val values = done(client.get(keys.javaList))
    keys.keys.indices.foreach(i => check(keys.keys(i), valueOf(keys.keys(i)), values.get(i)))

  def close(): Unit =
    client.shutdown()
    client.awaitDisconnected(10, TimeUnit.SECONDS)
