package weft

/**
 * The lock of the listener through which the future `owner` waits (an await's waiter, a
 * select): it declines every claim while `owner` has a cancellation pending that
 * `uninterruptible` does not defer. The future's result is then already the cancellation, so a
 * value taken by the listener (a channel's, a permit) would reach no one; declined, it stays with
 * its source for the next taker (ADR 0017). The owner's own poll or registration meeting a ready
 * value is declined too; only its give-up ([[retireUnused]]) is not. `null` owner: no rule.
 * `ChannelSelectSuite`, "a value sent right after a select's future is cancelled goes to the next
 * reader", and `AwaitAbandonSuite`, "a cancelled awaiter declines", re-check it.
 */
private[weft] abstract class OwnedLock(owner: Async | Null) extends NumberedLock:
  override final def acquire(): Boolean =
    val o = owner
    (o == null || !o.cancellationPending) && super.acquire()
