package weft
package internal.async

import weft.internal.InternalApi

/**
 * Joining a group where no `Async` context is at hand: a module's `close()` that ends the fibers
 * it started (memcached's client). Applications join a group with `CompletionGroup.join()`.
 */
@InternalApi
object GroupJoin:

  /**
   * Waits until every member of `group` has left and the threads they leave behind have ended,
   * ignoring interrupts (the interrupt status is raised again after); then reports the group's
   * unobserved failures. Cancel the group first, or this waits for its members to finish.
   */
  def uninterruptibly(group: CompletionGroup): Unit = group.waitCompletion()
