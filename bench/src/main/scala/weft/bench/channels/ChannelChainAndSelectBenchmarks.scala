package weft.bench.channels

import java.util.concurrent.{SynchronousQueue, TimeUnit}
import org.openjdk.jmh.annotations.*
import weft.{Async, ~~>}
import _root_.weft.channels as wch
import _root_.ox.channels as och
import com.softwaremill.jox as jx
import weft.bench.channels.ChannelBenchSupport.*

/**
 * Workload `channel-chain-1000`: 1,000 virtual threads in a chain of rendezvous channels, each
 * forwarding what it reads to the next; `Values` values pass end to end per invocation (threads
 * started per invocation). Score: values through the whole chain per second (x1000 = hops/s).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
class ChannelChain1000Bench:
  final val Links = 1000
  final val Values = 100

  @Benchmark @OperationsPerInvocation(100)
  def weft(): Unit =
    val chs = Array.fill(Links + 1)(wch.SyncChannel[Integer]())
    val ts = (0 until Links).map: k =>
      vt(Async.blocking {
        var i = 0;
        while i < Values do
          chs(k + 1).send(chs(k).read().get); i += 1
      })
    pair(Async.blocking {
      var i = 0;
      while i < Values do
        chs(0).send(i); i += 1
    }):
      Async.blocking {
        var i = 0;
        while i < Values do
          chs(Links).read(); i += 1
      }
    ts.foreach(_.join())

  @Benchmark @OperationsPerInvocation(100)
  def jox(): Unit =
    val chs = Array.fill(Links + 1)(jx.Channel.newRendezvousChannel[Integer]())
    val ts = (0 until Links).map: k =>
      vt {
        var i = 0;
        while i < Values do
          chs(k + 1).send(chs(k).receive()); i += 1
      }
    pair {
      var i = 0;
      while i < Values do
        chs(0).send(i); i += 1
    } {
      var i = 0;
      while i < Values do
        chs(Links).receive(); i += 1
    }
    ts.foreach(_.join())

  @Benchmark @OperationsPerInvocation(100)
  def ox(): Unit =
    val chs = Array.fill(Links + 1)(och.Channel.rendezvous[Integer])
    val ts = (0 until Links).map: k =>
      vt {
        var i = 0;
        while i < Values do
          chs(k + 1).send(chs(k).receive()); i += 1
      }
    pair {
      var i = 0;
      while i < Values do
        chs(0).send(i); i += 1
    } {
      var i = 0;
      while i < Values do
        chs(Links).receive(); i += 1
    }
    ts.foreach(_.join())

  @Benchmark @OperationsPerInvocation(100)
  def juc(): Unit =
    val qs = Array.fill(Links + 1)(SynchronousQueue[Integer]())
    val ts = (0 until Links).map: k =>
      vt {
        var i = 0;
        while i < Values do
          qs(k + 1).put(qs(k).take()); i += 1
      }
    pair {
      var i = 0;
      while i < Values do
        qs(0).put(i); i += 1
    } {
      var i = 0;
      while i < Values do
        qs(Links).take(); i += 1
    }
    ts.foreach(_.join())

/**
 * Workload `select-2`: one receiver selecting over two rendezvous channels, each fed by its own
 * sender (`N / 2` values each); all on virtual threads. Score: selects per second. Peers: jox
 * `Select.select` and Ox `select` (j.u.c. queues have no select).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
class Select2Bench:
  final val Half = N / 2

  @Benchmark @OperationsPerInvocation(N)
  def weft(): Unit =
    val a = wch.SyncChannel[Integer]()
    val b = wch.SyncChannel[Integer]()
    val sb = vt(Async.blocking {
      var i = 0;
      while i < Half do
        b.send(i); i += 1
    })
    pair(Async.blocking {
      var i = 0;
      while i < Half do
        a.send(i); i += 1
    }):
      Async.blocking:
        var i = 0
        while i < N do
          Async.select(a.canRead ~~> (_.get), b.canRead ~~> (_.get))
          i += 1
    sb.join()

  @Benchmark @OperationsPerInvocation(N)
  def jox(): Unit =
    val a = jx.Channel.newRendezvousChannel[Integer]()
    val b = jx.Channel.newRendezvousChannel[Integer]()
    val sb = vt {
      var i = 0;
      while i < Half do
        b.send(i); i += 1
    }
    pair {
      var i = 0;
      while i < Half do
        a.send(i); i += 1
    } {
      var i = 0
      while i < N do
        jx.Select.select(a.receiveClause(), b.receiveClause())
        i += 1
    }
    sb.join()

  @Benchmark @OperationsPerInvocation(N)
  def ox(): Unit =
    val a = och.Channel.rendezvous[Integer]
    val b = och.Channel.rendezvous[Integer]
    val sb = vt {
      var i = 0;
      while i < Half do
        b.send(i); i += 1
    }
    pair {
      var i = 0;
      while i < Half do
        a.send(i); i += 1
    } {
      var i = 0
      while i < N do
        och.select(a.receiveClause, b.receiveClause)
        i += 1
    }
    sb.join()
