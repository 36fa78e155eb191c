package weft.testkit

/** The public API of `testkit` is the recorded one (see [[weft.testing.PublicApiChecks]]). */
class PublicApiSuite extends weft.testing.PublicApiChecks("testkit", classOf[VirtualClock]),
      weft.testing.Deadlined
