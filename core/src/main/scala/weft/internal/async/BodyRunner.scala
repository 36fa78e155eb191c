package weft
package internal.async

/**
 * The computation whose body an `Async` context runs: what cancellation and `uninterruptible`
 * act on. A runnable future implements it (and a keyed task through one); the `Async` layer
 * knows only this interface, never the futures above it.
 */
private[weft] trait BodyRunner:

  /** Whether cancellation has been requested and is not deferred. */
  def cancellationPending: Boolean

  /** Whether the runner's own fiber is inside an `uninterruptible` block. */
  def inUninterruptible: Boolean

  /** Runs `block` with cancellation deferred; own fiber only (see `uninterruptible`). */
  def uninterruptibly[R](block: => R): R

  /** Whether the runner's body runs on the calling fiber. */
  def runsOnCurrentFiber: Boolean

  /** The scope of the futures the runner's body starts; `null` if it has started none. */
  def childScope: CompletionGroup | Null

/** Finding runners. */
private[weft] object BodyRunner:

  /**
   * The runner, started under `group` or below it (depth first through the child scopes of its
   * runners and through nested scopes), whose body runs on the calling fiber; `null` if none.
   */
  def onCurrentFiberIn(group: CompletionGroup): BodyRunner | Null =
    val members = group.memberSnapshot
    var i = 0
    while i < members.length do
      val found = members(i) match
        case r: BodyRunner =>
          if r.runsOnCurrentFiber then r
          else
            val children = r.childScope
            if children == null then null else onCurrentFiberIn(children)
        case g: CompletionGroup => onCurrentFiberIn(g)
        case _                  => null
      if found != null then return found
      i += 1
    null
