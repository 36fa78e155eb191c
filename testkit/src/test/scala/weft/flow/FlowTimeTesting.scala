package weft.flow

import scala.concurrent.duration.*
import weft.*
import weft.testkit.*

/** What the suites of the flows' time operators share, on the test kit's virtual time. */
object FlowTimeTesting:

  /**
   * A source that emits each value at its time, counted from the start of the run: it sleeps
   * until then (a time already past emits at once). Cold like any flow: each run starts its own
   * schedule.
   */
  def timed[T](schedule: (FiniteDuration, T)*)(using VirtualClock): Flow[T] =
    Flow.usingEmit: emit =>
      val start = currentTime
      for (at, v) <- schedule do
        val left = at - (currentTime - start)
        if left > Duration.Zero then sleep(left)
        emit(v)

  /** `flow`'s elements, each with the virtual time at which it reached the end of the flow. */
  def stamped[T](flow: Flow[T])(using VirtualClock, Async): List[(FiniteDuration, T)] =
    flow.map(t => (currentTime, t)).runToList()

  /** Milliseconds, for short expected lists: `ms(10, 20)` is `List(10.millis, 20.millis)`. */
  def ms(values: Long*): List[FiniteDuration] = values.toList.map(_.millis)
