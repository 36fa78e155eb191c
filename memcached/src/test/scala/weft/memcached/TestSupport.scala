package weft.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.atomic.AtomicLong
import weft.Async

/** Helpers shared by the memcached suites. */
object TestSupport:

  /** UTF-8 bytes. */
  def b(s: String): Array[Byte] = s.getBytes(UTF_8)

  /** Opens a client on `config`, runs `body`, closes it. */
  def withClient[T](config: MemcachedConfig)(body: MemcachedClient => T)(using Async): T =
    MemcachedClient.resource(config).use(body)

  /**
   * Outcome counts of a load test: every call must end in exactly one of them, and `wrong`
   * (a value that is not the one expected) must stay 0.
   */
  final class Tally:
    val ok = AtomicLong()
    val failed = AtomicLong()
    val cancelled = AtomicLong()
    val wrong = AtomicLong()
    def total: Long = ok.get + failed.get + cancelled.get
    override def toString: String =
      s"ok ${ok.get}, failed ${failed.get}, cancelled ${cancelled.get}, wrong ${wrong.get}"

    /** Runs `call`, counting how it ended; `check` says whether a result is right. */
    def count[T](call: => T)(check: T => Boolean): Unit =
      try
        val v = call
        if check(v) then ok.incrementAndGet() else wrong.incrementAndGet()
      catch
        case _: java.util.concurrent.CancellationException => cancelled.incrementAndGet()
        case _: MemcachedException                         => failed.incrementAndGet()
