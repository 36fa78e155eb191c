package weft
package internal.flow

import scala.util.control.ControlThrowable

/**
 * Thrown by a stage that needs no more elements ([[weft.flow.Flow.take]] and its kin) out of its
 * `emit`, to unwind its upstream: the stage catches its own instance (compared by identity, so a
 * nested `take` never catches an outer one's). A `ControlThrowable`, so `NonFatal` handlers in
 * user code, `recover` and `retry` let it through; it carries no stack trace and no suppressed
 * exceptions, so throwing it costs little. It crosses an asynchronous boundary as the failure
 * of the boundary's supervised scope, which rethrows the same instance after cancelling and
 * joining the boundary's fibers (`FlowTakeSuite` checks that nothing is left running).
 */
private[weft] final class FlowStop extends ControlThrowable
