package weft
package internal.flow

import scala.concurrent.duration.*
import scala.util.{Failure, Success, Try}
import weft.channels.{ChannelFailedException, ReadableChannel}
import weft.flow.{Flow, FlowEmit}

/**
 * The flow stages that depend on time or on the consumer's speed: `throttle` (fused),
 * `groupedWithin`, `debounce` and `conflate` (boundaries). Waits are weft waits (`sleep`,
 * `select` with `onTimeout`) and times are read from the support's clock, so under virtual time
 * they are exact (`FlowTimeSuite` in the test kit's tests).
 */
private[weft] object Windows:

  /** What a stage holds when it holds no element. */
  private object Empty

  private def isEmpty(x: Any): Boolean = x.asInstanceOf[AnyRef] eq Empty

  /** A read's outcome: the value, or `Empty` once the channel is closed (a failed channel throws). */
  private def valueOr[T](r: Try[T]): T | Empty.type = r match
    case Success(v)                         => v
    case Failure(e: ChannelFailedException) => throw e.getCause
    case Failure(_)                         => Empty

  /**
   * `throttle`: a sliding window. A ring holds the times of the last `elements` emissions; an
   * element waits until the oldest of them is `per` old, so no span of `per` ever holds more than
   * `elements` emissions, wherever it starts (`FlowThrottleSuite`). Fixed windows were simpler,
   * but let twice the rate through across a window's edge.
   */
  def throttle[T](upstream: Flow[T], elements: Int, perNanos: Long, emit: FlowEmit[T])(using
      a: Async
  ): Unit =
    val clock = a.support.clock
    val times = new Array[Long](elements)
    var emitted = 0L
    var oldest = 0
    upstream.stage(
      { t =>
        if emitted >= elements then
          val wait = times(oldest) + perNanos - clock.nanoTime()
          if wait > 0 then sleep(wait.nanos)
        times(oldest) = clock.nanoTime()
        oldest = if oldest + 1 == elements then 0 else oldest + 1
        emitted += 1
        emit(t)
      },
      a
    )

  def groupedWithin[T](
      ch: ReadableChannel[T],
      n: Int,
      within: FiniteDuration,
      emit: FlowEmit[Seq[T]]
  )(
      using a: Async
  ): Unit =
    val clock = a.support.clock
    var open = true
    while open do
      valueOr(ch.read()) match
        case Empty => open = false
        case first =>
          val group = Vector.newBuilder[T]
          group += first.asInstanceOf[T]
          var size = 1
          val deadline = clock.nanoTime() + within.toNanos
          var collecting = true
          def take(r: Try[T]): Unit = valueOr(r) match
            case Empty =>
              open = false
              collecting = false
            case v =>
              group += v.asInstanceOf[T]
              size += 1
          while collecting && size < n do
            ch.tryRead() match
              case Some(r) => take(r)
              case None =>
                val left = deadline - clock.nanoTime()
                if left <= 0 then collecting = false
                else Async.select(ch.canRead ~~> take, onTimeout(left.nanos) { collecting = false })
          emit(group.result())

  def debounce[T](ch: ReadableChannel[T], quiet: FiniteDuration, emit: FlowEmit[T])(using
      Async
  ): Unit =
    var pending: T | Empty.type = Empty
    var open = true
    while open do
      if isEmpty(pending) then
        valueOr(ch.read()) match
          case Empty => open = false
          case v     => pending = v
      else
        Async.select(
          ch.canRead ~~> (r =>
            valueOr(r) match
              case Empty => open = false
              case v     => pending = v
          ),
          onTimeout(quiet):
            val held = pending.asInstanceOf[T]
            pending = Empty
            emit(held)
        )
    if !isEmpty(pending) then emit(pending.asInstanceOf[T])

  def conflate[T](upstream: Flow[T], f: (T, T) => T, emit: FlowEmit[T])(using Async): Unit =
    supervised:
      val in = Fanout.channel[T](0)
      val out = Fanout.channel[T](0)
      Future:
        Fanout.feed(upstream, in)
        in.close()
      Future:
        var pending: T | Empty.type = Empty
        var open = true
        def arrived(r: Try[T]): Unit = valueOr(r) match
          case Empty => open = false
          case v =>
            pending = if isEmpty(pending) then v else f(pending.asInstanceOf[T], v.asInstanceOf[T])
        while open do
          if isEmpty(pending) then arrived(in.read())
          else
            Async.select(
              in.canRead ~~> arrived,
              out.sendSource(pending.asInstanceOf[T]) ~~> (_ => pending = Empty)
            )
        if !isEmpty(pending) then out.send(pending.asInstanceOf[T])
        out.close()
      Fanout.drain(out, emit)
