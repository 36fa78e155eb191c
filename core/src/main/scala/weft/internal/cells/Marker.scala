package weft
package internal.cells

/**
 * A state a cell can be in besides holding a value or a waiter (`PERMIT`, `DONE`, `BROKEN`...),
 * compared by identity; the name is for `toString` only.
 */
final private[weft] class Marker(name: String):
  override def toString: String = name
