package weft.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.atomic.AtomicLong
import weft.Async

/** Helpers shared by the memcached suites. */
object TestSupport:

  /** UTF-8 bytes. */
  def b(s: String): Array[Byte] = s.getBytes(UTF_8)

  /** Waits (at most `seconds`) until `cond` holds; returns whether it does. */
  def awaitUntil(cond: => Boolean, seconds: Int = 10): Boolean =
    val end = System.nanoTime() + seconds * 1_000_000_000L
    while !cond && System.nanoTime() < end do Thread.sleep(10)
    cond

  /**
   * Waits (at most 10 s) until no request is in flight on any node of `c`. The reader completes
   * a caller's request before it takes the request out of the in-flight count, so a count read
   * right after a call returned may still include it: read the counts after this.
   */
  def awaitSettled(c: MemcachedClient): Unit =
    if !awaitUntil(c.nodeStats.forall(_.inFlight == 0)) then
      throw AssertionError(s"requests still in flight after 10 s: ${c.nodeStats}")

  /** Waits (at most 10 s) until a `set` through `c` succeeds; fails the test otherwise. */
  def awaitWorking(c: MemcachedClient)(using Async): Unit =
    def works =
      try
        c.set("probe", b("v"))
        true
      catch case _: MemcachedException => false
    munit.Assertions.assert(awaitUntil(works), s"the client never recovered: $c")

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
    def total: Long = ok.get + failed.get + cancelled.get + wrong.get
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

  /**
   * What a read of each key may return, for one writer per key: the last acknowledged value,
   * `None` (a miss) before the first acknowledged write, and the value of every write that
   * failed or was cancelled. A failed write stays possible for good: its bytes may wait in the
   * server's buffer of a connection the client gave up (a stopped server), and be applied
   * after a later write acknowledged on a new connection.
   */
  final class KeyModel:
    private val possible =
      scala.collection.mutable.HashMap[String, Set[Option[String]]]().withDefaultValue(Set(None))
    private val failed =
      scala.collection.mutable.HashMap[String, Set[Option[String]]]().withDefaultValue(Set.empty)

    /** A write of `v` was acknowledged. */
    def acked(k: String, v: String): Unit = possible(k) = failed(k) + Some(v)

    /** A write of `v` failed or was cancelled. */
    def uncertain(k: String, v: String): Unit =
      failed(k) = failed(k) + Some(v)
      possible(k) = possible(k) + Some(v)

    /** The server lost its items (it was restarted): every key may now miss. */
    def loseAll(): Unit = possible.mapValuesInPlace((_, set) => set + None)

    /** Whether `read` is a possible result. */
    def allows(k: String, read: Option[String]): Boolean = possible(k).contains(read)

  /**
   * One random operation on `key` (set or get), counted in `tally`, checked against `model`.
   * After a failure the caller sleeps 1 ms, as a real one would back off: a virtual thread
   * that fails fast in a loop never yields its carrier, and a few of them would starve the
   * client's own fibers (and the test's) on a 2-core machine.
   */
  def randomOp(
      c: MemcachedClient,
      model: KeyModel,
      tally: Tally,
      key: String,
      i: Int,
      set: Boolean
  )(
      using Async
  ): Unit =
    val failedBefore = tally.failed.get
    if set then
      val v = s"$key|$i"
      try
        c.set(key, b(v))
        model.acked(key, v)
        tally.ok.incrementAndGet()
      catch
        case e: MemcachedException =>
          model.uncertain(key, v)
          tally.failed.incrementAndGet()
    else tally.count(c.get(key).toOption.map(_.string))(model.allows(key, _))
    if tally.failed.get != failedBefore then Thread.sleep(1)
