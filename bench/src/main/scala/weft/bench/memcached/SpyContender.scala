package weft.bench.memcached

import java.util.concurrent.TimeUnit
import net.spy.memcached.{AddrUtil, ConnectionFactoryBuilder, DefaultHashAlgorithm, MemcachedClient}
import net.spy.memcached.internal.{GetCompletionListener, GetFuture}
import net.spy.memcached.transcoders.SerializingTranscoder

/**
 * spymemcached 2.12.3 as its users set it up: one client (one connection per server, its
 * design), text or binary protocol, Nagle off (TCP_NODELAY), operation timeout long enough never
 * to fire; its default optimisation (merging queued gets into one multi-get) kept. Keys are
 * placed with Ketama (`KETAMA_HASH`, the consistent locator; its default is array-mod, which
 * one server does not see) and values stored uncompressed (its default gzips values above
 * 16 KiB), so the value-size sweep stores the same bytes for every client. A `setGet`
 * op issues the eight calls asynchronously, then waits for all, as the seed did. Its
 * asynchronous get ([[asyncGets]]) is `asyncGet` with a `GetCompletionListener`, which
 * spymemcached runs on its listener executor (its default pool).
 */
final class SpyContender(servers: Seq[String], binary: Boolean) extends McContender:
  import McContender.*

  private val client = MemcachedClient(
    ConnectionFactoryBuilder()
      .setProtocol(
        if binary then ConnectionFactoryBuilder.Protocol.BINARY
        else ConnectionFactoryBuilder.Protocol.TEXT
      )
      .setUseNagleAlgorithm(false)
      .setOpTimeout(TimeoutMillis)
      .setLocatorType(ConnectionFactoryBuilder.Locator.CONSISTENT)
      .setHashAlg(DefaultHashAlgorithm.KETAMA_HASH)
      // Values stored as their UTF-8 bytes, as every client stores them: no gzip above 16 KiB.
      .setTranscoder(plainTranscoder)
      .build(),
    AddrUtil.getAddresses(servers.mkString(" "))
  )

  private def plainTranscoder =
    val t = SerializingTranscoder()
    t.setCompressionThreshold(Int.MaxValue)
    t

  def set(key: String, value: String): Unit =
    if !client.set(key, TtlSeconds, value).get(TimeoutMillis, TimeUnit.MILLISECONDS) then
      throw IllegalStateException(s"set $key failed")

  def setGet(keys: Array[String], values: Array[String]): Unit =
    val sets = keys.indices.map(i => client.set(keys(i), TtlSeconds, values(i)))
    val gets = keys.indices.map(i => client.asyncGet(keys(i)))
    keys.indices.foreach: i =>
      if !sets(i).get(TimeoutMillis, TimeUnit.MILLISECONDS) then
        throw IllegalStateException(s"set ${keys(i)} failed")
      check(keys(i), values(i), gets(i).get(TimeoutMillis, TimeUnit.MILLISECONDS))

  def get(key: String): String =
    client.asyncGet(key).get(TimeoutMillis, TimeUnit.MILLISECONDS).asInstanceOf[String]

  override def asyncGets[A](body: AsyncGet => A): A =
    body: (key, done) =>
      client.asyncGet(key).addListener(
        new GetCompletionListener:
          def onComplete(f: GetFuture[?]): Unit =
            // the future is complete here: get returns at once, or throws its failure
            val value =
              try f.get().asInstanceOf[String]
              catch
                case e: java.util.concurrent.ExecutionException =>
                  done(null, Option(e.getCause).getOrElse(e))
                  return
                case e: Throwable =>
                  done(null, e)
                  return
            done(value, null)
      )

  def multiGet(keys: KeySet): Unit =
    val hits = client.getBulk(keys.javaList)
    keys.keys.foreach(k => check(k, valueOf(k), hits.get(k)))

  def close(): Unit = client.shutdown(10, TimeUnit.SECONDS)
