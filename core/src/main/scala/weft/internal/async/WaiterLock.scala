package weft
package internal.async

/**
 * The lock of the listener through which the future `owner` waits (an await's waiter, a
 * select): it declines every claim while `owner` has a cancellation pending that
 * `uninterruptible` does not defer. The future's result is then already the cancellation, so a
 * value taken by the listener (a channel's, a permit) would reach no one; declined, it stays with
 * its source for the next taker (ADR 0017). The owner's own poll or registration meeting a ready
 * value is declined too; only its give-up ([[retireUnused]]) is not. `null` owner: no rule.
 * `ChannelSelectSuite`, "a value sent right after a select's future is cancelled goes to the next
 * reader", and `AwaitAbandonSuite`, "a cancelled awaiter declines", re-check it.
 *
 * The rule is checked again once the claim holds the lock: a claim may start before `cancel()`
 * and get the lock after it, having waited for another claimant; it then releases the lock and
 * declines. A claim that holds the lock before the cancel still wins (the value was delivered
 * first, ADR 0006). `AwaitAbandonSuite`, "a claim on an await (a select) that started before
 * cancel() and gets the lock after it is declined", re-checks it.
 */
private[weft] abstract class WaiterLock(owner: Async | Null) extends NumberedLock:
  override final def acquire(): Boolean =
    val o = owner
    if o == null then super.acquire()
    else if o.cancellationPending || !super.acquire() then false
    else if o.cancellationPending then
      release()
      false
    else true

  /**
   * Whether `owner` has a cancellation pending now: for a claimant that took this lock before the
   * cancel and meets a value only afterwards, which it must then decline itself (a select's
   * registration, `SelectCells.register`; `SelectCancelledBeforeClaimSuite` re-checks it).
   */
  final def ownerCancelled: Boolean =
    val o = owner
    o != null && o.cancellationPending
