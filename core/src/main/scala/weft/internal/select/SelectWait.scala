package weft
package internal.select

import java.util.concurrent.CancellationException
import weft.internal.async.Parking
import weft.runtime.Fiber

/** The wait of a select: how a fiber waits for the first case of a [[Selector]] to fire. */
private[weft] object SelectWait:

  /**
   * Waits until a case of `sel` fires (see [[Selector]]): polls, registers, parks. An interrupt
   * abandons the select unless a case fired first, as an await does.
   */
  def await(sel: Selector)(using async: Async): Unit =
    if async.cancellationPending then
      throw CancellationException("the awaiting scope was cancelled")
    if !sel.pollAll() then
      sel.registerAll()
      sel.spinBeforePark()
      while !sel.isDone do
        if Parking.parkOnce(sel) then
          if sel.abandon() then
            if async.cancellationPending then
              throw CancellationException("the awaiting scope was cancelled")
            throw InterruptedException()
          Fiber.selfInterrupt()
