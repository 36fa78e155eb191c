package weft.bench.memcached

import com.google.code.yanf4j.core.impl.StandardSocketOption
import net.rubyeye.xmemcached.{HashAlgorithm, XMemcachedClientBuilder}
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator
import net.rubyeye.xmemcached.transcoders.SerializingTranscoder
import net.rubyeye.xmemcached.command.{BinaryCommandFactory, TextCommandFactory}
import net.rubyeye.xmemcached.utils.AddrUtil

/**
 * xmemcached 2.4.9 as its users set it up: one connection (pool size 1, its default), text or
 * binary commands, TCP_NODELAY, operation timeout long enough never to fire, Ketama with its
 * nginx-compatible `host:port` node names (`KetamaMemcachedSessionLocator(KETAMA_HASH, true)`),
 * values stored uncompressed (its default gzips above 16 KiB); its default
 * optimisation (merging up to 32 queued gets into one multi-get) kept. That merge sends a key
 * once for all the gets of it that are queued together, so with every thread on the same four
 * keys the server counts fewer gets than were called and the stats check fails such a row, so
 * `memcached-setget` has only the `Unmerged` rows (`setOptimizeGet(false)`, every get sent). Its API is blocking, so
 * a `setGet` op is eight calls in sequence (the seed's wrapper did the same, but counted its
 * latch down before each call; here every call's result is checked). It has no asynchronous
 * get (every get of its API blocks the caller until the reply; only some stores have
 * fire-and-forget `...WithNoReply` forms), so [[asyncGets]] keeps the default refusal and
 * xmemcached has no asynchronous open-loop row.
 */
final class XmemContender(servers: Seq[String], binary: Boolean, mergeGets: Boolean)
    extends McContender:
  import McContender.*

  private val client =
    val b = XMemcachedClientBuilder(AddrUtil.getAddresses(servers.mkString(" ")))
    b.setSessionLocator(KetamaMemcachedSessionLocator(HashAlgorithm.KETAMA_HASH, true))
    // Values stored as their UTF-8 bytes, as every client stores them: no gzip above 16 KiB.
    val transcoder = SerializingTranscoder()
    transcoder.setCompressionThreshold(Int.MaxValue)
    b.setTranscoder(transcoder)
    b.setConnectionPoolSize(1)
    b.setCommandFactory(if binary then BinaryCommandFactory() else TextCommandFactory())
    b.setSocketOption(StandardSocketOption.TCP_NODELAY, java.lang.Boolean.TRUE)
    b.setOpTimeout(TimeoutMillis)
    b.setConnectTimeout(10_000L)
    val c = b.build()
    c.setOptimizeGet(mergeGets)
    c

  def set(key: String, value: String): Unit =
    if !client.set(key, TtlSeconds, value) then throw IllegalStateException(s"set $key failed")

  def setGet(keys: Array[String], values: Array[String]): Unit =
    keys.indices.foreach: i =>
      set(keys(i), values(i))
      check(keys(i), values(i), client.get[String](keys(i)))

  def get(key: String): String = client.get[String](key)

  def multiGet(keys: KeySet): Unit =
    val hits = client.get[String](keys.javaList)
    keys.keys.foreach(k => check(k, valueOf(k), hits.get(k)))

  def close(): Unit = client.shutdown()
