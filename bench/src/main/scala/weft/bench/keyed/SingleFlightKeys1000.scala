package weft.bench.keyed

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*

/**
 * A single-flight workload: 1000 callers on 1000 keys, one each, each caller on its own new virtual thread, every round a
 * coalesced miss of fresh keys. The score is calls per second. See [[SingleFlightContenders]]
 * for the setup, which is the same for every contender.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(1000)
class SingleFlightKeys1000:
  private val c = SingleFlightContenders(callers = 1000, keys = 1000)

  /** Starts weft's owner scope. */
  @Setup(Level.Trial) def setup(): Unit = c.setup()

  /** Ends weft's owner scope and Caffeine's executor. */
  @TearDown(Level.Trial) def teardown(): Unit = c.teardown()

  /** weft's `SingleFlight`. */
  @Benchmark def weft(): Long = c.weft()

  /** Caffeine's coalescing `AsyncCache.get` (its executor: a virtual thread per task). */
  @Benchmark def caffeine(): Long = c.caffeine()

  /** A `ConcurrentHashMap` of `CompletableFuture`s: `computeIfAbsent`, removed on completion. */
  @Benchmark def concurrentHashMap(): Long = c.concurrentHashMap()

  /** The same map, computed by the caller that installed the future; shown, not compared. */
  @Benchmark def concurrentHashMapInline(): Long = c.concurrentHashMapInline()
