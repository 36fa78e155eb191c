package weft.bench.memcached

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import org.openjdk.jmh.annotations.*

/**
 * The value-size sweep (`memcached-value-10b`, `-1kib`, `-100kib`, `-1000kib`): each JMH
 * thread owns one key and one value of [[valueBytes]] ASCII letters (random, drawn once per
 * thread); one op = set the key to the value, then get it back and compare the whole value.
 * The server must count one set, one get and one hit per op ([[McBench]]). Every client stores
 * the value's UTF-8 bytes as they are (spymemcached's and xmemcached's default gzip above
 * 16 KiB is off, so every client moves the same bytes). The largest value, 1,024,000 bytes,
 * stays under the server's 1 MiB item limit with its key and item header.
 *
 * The benchmark methods are inherited by one subclass per size (JMH generates them there).
 */
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
abstract class McValueBench extends McBench:

  /** Bytes per value. */
  protected def valueBytes: Int

  protected def setsPerOp: Long = 1
  protected def getsPerOp: Long = 1
  protected def preload(c: McContender): Unit = ()

  private def op(t: McValueBench.ThreadValue): Unit =
    contender.setGet(t.key, t.value(valueBytes))
    ops.increment()

  @Benchmark def weft(t: McValueBench.ThreadValue): Unit = op(t)
  @Benchmark def spyAscii(t: McValueBench.ThreadValue): Unit = op(t)
  @Benchmark def spyBinary(t: McValueBench.ThreadValue): Unit = op(t)
  @Benchmark def xmemAscii(t: McValueBench.ThreadValue): Unit = op(t)
  @Benchmark def xmemBinary(t: McValueBench.ThreadValue): Unit = op(t)
  @Benchmark def folsomAscii(t: McValueBench.ThreadValue): Unit = op(t)
  @Benchmark def folsomBinary(t: McValueBench.ThreadValue): Unit = op(t)

/** Per-thread keys and values. */
object McValueBench:
  private val threadIds = AtomicInteger()

  /** One thread's key and (once its size is known) value. */
  @State(Scope.Thread)
  class ThreadValue:
    private val id = threadIds.incrementAndGet()

    /** The thread's key, as a one-key batch for [[McContender.setGet]]. */
    val key: Array[String] = Array(s"value-key-$id")

    private var values: Array[String] = null

    /** The thread's value of `bytes` letters, drawn on first use. */
    def value(bytes: Int): Array[String] =
      if values == null then
        val rnd = java.util.SplittableRandom(id.toLong)
        values = Array(String(Array.fill(bytes)(('a' + rnd.nextInt(26)).toChar)))
      values

/** `memcached-value-10b`. */
class MemcachedValue10B extends McValueBench:
  protected def workloadId: String = "memcached-value-10b"
  protected def valueBytes: Int = 10

/** `memcached-value-1kib`. */
class MemcachedValue1KiB extends McValueBench:
  protected def workloadId: String = "memcached-value-1kib"
  protected def valueBytes: Int = 1024

/** `memcached-value-100kib`. */
class MemcachedValue100KiB extends McValueBench:
  protected def workloadId: String = "memcached-value-100kib"
  protected def valueBytes: Int = 100 * 1024

/** `memcached-value-1000kib`: 1,024,000 bytes, under the 1 MiB item limit with key and header. */
class MemcachedValue1000KiB extends McValueBench:
  protected def workloadId: String = "memcached-value-1000kib"
  protected def valueBytes: Int = 1000 * 1024
