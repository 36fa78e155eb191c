package weft

/** The public API of `core` is the recorded one (see [[weft.testing.PublicApiChecks]]). */
class PublicApiSuite extends weft.testing.PublicApiChecks("core", classOf[Future[?]])
