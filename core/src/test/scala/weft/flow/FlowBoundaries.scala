package weft.flow

import scala.concurrent.duration.*

/**
 * Every asynchronous boundary, as a function of the flow on its upstream side: the flow it is
 * given runs on a fiber of its own, the stages after the result on another. Other sides of the
 * two-sided boundaries are flows that end at once or never do.
 */
object FlowBoundaries:

  /** A boundary: its name and what it makes of its upstream. */
  final case class Boundary(name: String, wrap: Flow[Int] => Flow[Int])

  val all: List[Boundary] = List(
    Boundary("buffer(2)", _.buffer(2)),
    Boundary("buffer(0)", _.buffer(0)),
    Boundary("mapPar", _.mapPar(2)(identity)),
    Boundary("mapParUnordered", _.mapParUnordered(2)(identity)),
    Boundary("flatMapMerge", _.flatMapMerge(2)(Flow(_))),
    Boundary("merge, left side", _.merge(Flow.empty[Int])),
    Boundary("merge, right side", Flow.empty[Int].merge(_)),
    Boundary("Flow.merge", f => Flow.merge(Flow.empty[Int], f, Flow.empty[Int])),
    Boundary("zip, right side", f => Flow.iterate(0)(_ + 1).zip(f).map(_._2)),
    Boundary("interleave, left side", _.interleave(Flow.empty[Int])),
    Boundary("interleave, right side", Flow.empty[Int].interleave(_)),
    Boundary("groupBy", _.groupBy(2, _ % 2)((_, sub) => sub)),
    Boundary("conflate", _.conflate[Int](_ + _)),
    Boundary("debounce", _.debounce(1.milli)),
    Boundary("groupedWithin", _.groupedWithin(10, 1.milli).mapConcat(identity)),
    Boundary(
      "buffer then mapPar then merge",
      f => f.buffer(1).mapPar(2)(identity).merge(Flow.empty[Int])
    )
  )
