package weft.bench

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*

/**
 * Workload `handoff-ideal` (seed 002, "comparison with ideal implementation"): a sender and a
 * receiver virtual thread hand values over through one volatile slot and a volatile flag,
 * spinning; no library, no allocation. The floor for the channel workloads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(HandoffIdeal.N)
class HandoffIdeal:
  @volatile private var shared: Long = 0L
  @volatile private var timeForWriting: Boolean = true

  /** Hands over [[HandoffIdeal.N]] values; returns the receiver's sum. */
  @Benchmark
  def ideal(): Long =
    timeForWriting = true
    var received = 0L
    val sender = Thread.ofVirtual().start { () =>
      var i = 0L
      while i < HandoffIdeal.N do
        while !timeForWriting do Thread.onSpinWait()
        shared = i
        timeForWriting = false
        i += 1
    }
    val receiver = Thread.ofVirtual().start { () =>
      var n = 0
      var sum = 0L
      while n < HandoffIdeal.N do
        while timeForWriting do Thread.onSpinWait()
        sum += shared
        timeForWriting = true
        n += 1
      received = sum
    }
    sender.join()
    receiver.join()
    received

/** Constants of [[HandoffIdeal]]. */
object HandoffIdeal:
  /** Values handed over per invocation. */
  final val N = 100000
