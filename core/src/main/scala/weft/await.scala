package weft

import scala.util.Try

extension [T](src: Source[Try[T]])
  /** Suspends until this source offers a result and returns its value, or throws its failure. */
  def await(using async: Async): T = async.await(src).get
