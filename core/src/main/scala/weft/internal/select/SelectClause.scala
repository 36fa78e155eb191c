package weft
package internal.select

/**
 * The protocol between [[Async.select]] and a source that can hold a select case in a storage
 * of its own instead of a listener list: a rendezvous channel parks the case in one of its
 * cells, where the sender of that cell completes it with one lock acquisition and one CAS.
 * `Selector` knows only this protocol; the channels implement it (`weft.internal.channels.ReadSource`,
 * `SendSource`), so the select layer never names a channel.
 */
private[weft] trait SelectClause:

  /** The object this source reads from or sends to (compared by identity only). */
  def clauseTarget: AnyRef

  /** Whether a select case may park in this source's storage (see [[parkCase]]). */
  def parksInCell: Boolean

  /**
   * Parks select case `k` in this source's storage, or completes it at once; the registration
   * to hand to [[withdrawCase]] later, or `null` if nothing stays parked.
   */
  def parkCase(k: Listener[Any]): AnyRef | Null

  /** Withdraws a registration of [[parkCase]] whose select is over (idempotent). */
  def withdrawCase(token: AnyRef): Unit

  /**
   * Spins before a select with a case parked here parks its fiber, while `done` is false and as
   * this source's spin policy allows (and scores the spin there).
   */
  def spinBeforePark(done: => Boolean): Unit
