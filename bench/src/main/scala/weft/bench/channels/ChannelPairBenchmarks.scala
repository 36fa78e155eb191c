package weft.bench.channels

import java.util.concurrent.{
  ArrayBlockingQueue,
  BlockingQueue,
  LinkedTransferQueue,
  SynchronousQueue,
  TimeUnit
}
import org.openjdk.jmh.annotations.*
import weft.Async
import _root_.weft.channels as wch
import _root_.ox.channels as och
import com.softwaremill.jox as jx
import weft.bench.channels.ChannelBenchSupport.*

/**
 * One sender to one receiver, each on its own virtual thread, `N` values per invocation;
 * weft beside jox 1.0.1, Ox 1.0.0 channels and a `java.util.concurrent` queue. Score: values
 * per second. Concrete classes fix the channel kind (the workload id is in each class).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
abstract class ChannelPairBench:
  /** A fresh weft channel of this workload's kind. */
  def weftChannel(): wch.Channel[Integer]

  /** A fresh jox channel of this workload's kind. */
  def joxChannel(): jx.Channel[Integer]

  /** A fresh Ox channel of this workload's kind. */
  def oxChannel(): och.Channel[Integer]

  /** A fresh j.u.c. queue that plays this kind. */
  def jucQueue(): BlockingQueue[Integer]

  @Benchmark @OperationsPerInvocation(N)
  def weft(): Unit =
    val ch = weftChannel()
    pair(Async.blocking {
      var i = 0;
      while i < N do
        ch.send(i); i += 1
    }):
      Async.blocking {
        var i = 0;
        while i < N do
          ch.read(); i += 1
      }

  @Benchmark @OperationsPerInvocation(N)
  def jox(): Unit =
    val ch = joxChannel()
    pair {
      var i = 0;
      while i < N do
        ch.send(i); i += 1
    } {
      var i = 0;
      while i < N do
        ch.receive(); i += 1
    }

  @Benchmark @OperationsPerInvocation(N)
  def ox(): Unit =
    val ch = oxChannel()
    pair {
      var i = 0;
      while i < N do
        ch.send(i); i += 1
    } {
      var i = 0;
      while i < N do
        ch.receive(); i += 1
    }

  @Benchmark @OperationsPerInvocation(N)
  def juc(): Unit =
    val q = jucQueue()
    pair {
      var i = 0;
      while i < N do
        q.put(i); i += 1
    } {
      var i = 0;
      while i < N do
        q.take(); i += 1
    }

/** Workload `channel-sync`: rendezvous; j.u.c. peer is `SynchronousQueue`. */
class ChannelSyncBench extends ChannelPairBench:
  def weftChannel() = wch.SyncChannel[Integer]()
  def joxChannel() = jx.Channel.newRendezvousChannel[Integer]()
  def oxChannel() = och.Channel.rendezvous[Integer]
  def jucQueue() = SynchronousQueue[Integer]()

/** Workload `channel-buffered-16`: buffer of 16; j.u.c. peer is `ArrayBlockingQueue(16)`. */
class ChannelBuffered16Bench extends ChannelPairBench:
  def weftChannel() = wch.BufferedChannel[Integer](16)
  def joxChannel() = jx.Channel.newBufferedChannel[Integer](16)
  def oxChannel() = och.Channel.buffered[Integer](16)
  def jucQueue() = ArrayBlockingQueue[Integer](16)

/** Workload `channel-buffered-100`: buffer of 100; j.u.c. peer is `ArrayBlockingQueue(100)`. */
class ChannelBuffered100Bench extends ChannelPairBench:
  def weftChannel() = wch.BufferedChannel[Integer](100)
  def joxChannel() = jx.Channel.newBufferedChannel[Integer](100)
  def oxChannel() = och.Channel.buffered[Integer](100)
  def jucQueue() = ArrayBlockingQueue[Integer](100)

/** Workload `channel-unbounded`: unbounded; j.u.c. peer is `LinkedTransferQueue`. */
class ChannelUnboundedBench extends ChannelPairBench:
  def weftChannel() = wch.UnboundedChannel[Integer]()
  def joxChannel() = jx.Channel.newUnlimitedChannel[Integer]()
  def oxChannel() = och.Channel.unlimited[Integer]
  def jucQueue() = LinkedTransferQueue[Integer]()
