package weft
package internal.keyed

import weft.keyed.*

/**
 * What the workers of a [[WorkerPool]] run: a lone key entry (a [[KeyedTask]] that found its key
 * idle and has no lane) or a [[Lane]] whose baton the activating fiber handed over. The pool and
 * its [[ReadyQueue]] pass work along without looking at it; `Sequentially.drain` tells the two
 * apart.
 */
private[weft] trait ReadyWork
