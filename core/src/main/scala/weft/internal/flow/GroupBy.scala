package weft
package internal.flow

import java.util.concurrent.atomic.AtomicInteger
import weft.channels.Channel
import weft.flow.{Flow, FlowEmit}

/**
 * `groupBy`: the fiber feeding the boundary routes each element to its key's channel, opening a
 * sub-flow (a child fiber of the boundary's scope, running `child` over that channel into the
 * merged output) for a key it has no open channel for. The open keys are kept in access order;
 * at `parallelism` open keys, a new key first closes the least recently used one, whose child
 * then drains what it was given and ends.
 *
 * A count of the feeders still running (the routing fiber, and each child) closes the merged
 * output when it reaches zero: after the routing fiber has closed every key's channel at the
 * end of the upstream, and every child has ended. The routing state is touched by the routing
 * fiber only, so it needs no lock.
 */
private[weft] object GroupBy:

  def run[T, K, U](
      upstream: Flow[T],
      parallelism: Int,
      key: T => K,
      child: (K, Flow[T]) => Flow[U],
      emit: FlowEmit[U]
  )(using Async): Unit =
    supervised:
      val scope = Scope.current
      val out = Fanout.channel[U](Flow.DefaultBuffer)
      val running = AtomicInteger(1)
      def feederDone(): Unit = if running.decrementAndGet() == 0 then out.close()
      // access-ordered: iteration starts at the least recently used key
      val open = java.util.LinkedHashMap[K, Channel[T]](16, 0.75f, true)
      def openKey(k: K): Channel[T] =
        if open.size >= parallelism then
          val eldest = open.entrySet.iterator.next()
          open.remove(eldest.getKey)
          eldest.getValue.close()
        val ch = Fanout.channel[T](Flow.DefaultBuffer)
        open.put(k, ch)
        val sub = child(k, Flow.fromChannel(ch))
        running.incrementAndGet()
        scope.fork:
          // a child that stops early (a `take`) closes its channel, so the routing fiber never
          // waits on a channel nobody reads
          try Fanout.feed(sub, out)
          finally ch.close()
          feederDone()
        ch
      Future:
        upstream.stage(
          { t =>
            val k = key(t)
            val ch = open.get(k) match
              case null => openKey(k)
              case c    => c
            // a child that ended early closed its channel: the element is dropped, as the rest
            // of that key's elements are while the key stays open
            ch.sendOrClosed(t): Unit
          },
          summon[Async]
        )
        open.values.forEach(_.close())
        open.clear()
        feederDone()
      Fanout.drain(out, emit)
