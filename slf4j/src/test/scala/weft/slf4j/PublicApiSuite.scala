package weft.slf4j

/** The public API of `slf4j` is the recorded one (see [[weft.testing.PublicApiChecks]]). */
class PublicApiSuite extends weft.testing.PublicApiChecks("slf4j", Mdc.getClass),
      weft.testing.Deadlined
