package weft.bench.keyed

import com.github.benmanes.caffeine.cache.{AsyncCache, Caffeine}
import java.util.concurrent.{CompletableFuture, ConcurrentHashMap, CountDownLatch, Executors}
import java.util.concurrent.atomic.AtomicLong
import weft.Async
import weft.keyed.SingleFlight

/**
 * The single-flight workloads' contenders: one round is `callers` callers, caller `i` asking key
 * `i % keys`, each on its own new virtual thread, every one of them getting its key's value
 * through the contender's coalescing call; the round ends when all have their value.
 *
 * Like for like:
 *   - every caller is a new virtual thread (`Thread.ofVirtual`), for every contender; weft's
 *     caller enters `Async.blocking` on it (its body runs on that thread);
 *   - a computation waits until every caller of the round has started its call (a latch each
 *     caller counts down just before calling), so the callers of a key arrive while its
 *     computation is in flight and coalesce: each round is a miss for every key;
 *   - keys are fresh every round (a counter), and nothing is kept between rounds: weft's
 *     `SingleFlight` keeps nothing by design, the map removes each entry when its future
 *     completes, Caffeine's cache is told to forget the round's keys at the end of the round;
 *   - every computation runs on a virtual thread of its own: weft's fiber in the owner's scope,
 *     Caffeine's executor and the map's `supplyAsync` a virtual thread per task. The map's
 *     inline variant, which computes on the caller that installed the future, is the cheapest
 *     shape a user writes, shown beside the others.
 */
final class SingleFlightContenders(callers: Int, keys: Int):
  require(keys <= callers, "every key has a caller")
  private val round = AtomicLong()
  private val vexec = Executors.newVirtualThreadPerTaskExecutor()
  private val cache: AsyncCache[java.lang.Long, java.lang.Long] =
    Caffeine.newBuilder().executor(vexec).buildAsync[java.lang.Long, java.lang.Long]()
  private val map = ConcurrentHashMap[java.lang.Long, CompletableFuture[java.lang.Long]]()
  @volatile private var flight: SingleFlight[java.lang.Long, java.lang.Long] = null
  private val stop = CountDownLatch(1)
  private var owner: Thread = null

  /** Starts weft's owner scope, which holds the `SingleFlight` until [[teardown]]. */
  def setup(): Unit =
    val ready = CountDownLatch(1)
    owner = Thread.ofVirtual().start: () =>
      Async.blocking:
        flight = SingleFlight()
        ready.countDown()
        stop.await()
    ready.await()

  /** Ends weft's owner scope and the virtual-thread executor. */
  def teardown(): Unit =
    stop.countDown()
    owner.join()
    vexec.shutdown()

  /** The first key of a new round (the round's keys are `base` to `base + keys - 1`). */
  private def nextBase(): Long = round.getAndIncrement() * keys

  /** One round through `call(key, arrived)`; returns the sum of the values (for the Blackhole). */
  private inline def runRound(base: Long)(inline call: (java.lang.Long, CountDownLatch) => Long)
      : Long =
    val arrived = CountDownLatch(callers)
    val done = CountDownLatch(callers)
    val sum = AtomicLong()
    var i = 0
    while i < callers do
      val key = java.lang.Long.valueOf(base + i % keys)
      Thread
        .ofVirtual()
        .start: () =>
          arrived.countDown()
          sum.addAndGet(call(key, arrived))
          done.countDown()
      i += 1
    done.await()
    sum.get

  /** The computation: waits for every caller of the round to have called, then gives the key. */
  private def compute(key: java.lang.Long, arrived: CountDownLatch): java.lang.Long =
    arrived.await()
    key

  /** weft's `SingleFlight`. */
  def weft(): Long =
    val sf = flight
    runRound(nextBase())((key, arrived) => Async.blocking(sf(key)(compute(key, arrived))).longValue)

  /** Caffeine's coalescing `AsyncCache.get`, the round's keys invalidated at its end. */
  def caffeine(): Long =
    val base = nextBase()
    val sum =
      runRound(base)((key, arrived) => cache.get(key, k => compute(k, arrived)).join().longValue)
    val view = cache.synchronous()
    var k = 0
    while k < keys do
      view.invalidate(java.lang.Long.valueOf(base + k))
      k += 1
    sum

  /**
   * `ConcurrentHashMap.computeIfAbsent` of a `CompletableFuture` computed on a virtual thread of
   * its own (as weft's and Caffeine's are), removed from the map when it completes.
   */
  def concurrentHashMap(): Long =
    runRound(nextBase()): (key, arrived) =>
      var mine: CompletableFuture[java.lang.Long] | Null = null
      val f = map.computeIfAbsent(
        key,
        _ =>
          mine = CompletableFuture.supplyAsync(() => compute(key, arrived), vexec)
          mine.nn
      )
      if mine != null then mine.nn.whenComplete((_, _) => map.remove(key, mine)): Unit
      f.join().longValue

  /**
   * As [[concurrentHashMap]], but the caller that installed the future computes it on its own
   * thread: no thread per computation, and nothing a caller could leave without taking the
   * computation from the others. The cheapest shape; shown, not compared.
   */
  def concurrentHashMapInline(): Long =
    runRound(nextBase()): (key, arrived) =>
      var mine: CompletableFuture[java.lang.Long] | Null = null
      val f = map.computeIfAbsent(
        key,
        _ =>
          mine = CompletableFuture[java.lang.Long]()
          mine.nn
      )
      if mine != null then
        try mine.nn.complete(compute(key, arrived))
        catch case e: Throwable => mine.nn.completeExceptionally(e)
        finally map.remove(key, mine)
      f.join().longValue
