package weft.io

/** The public API of `io` is the recorded one (see [[weft.testing.PublicApiChecks]]). */
class PublicApiSuite extends weft.testing.PublicApiChecks("io", classOf[TcpConnection]),
      weft.testing.Deadlined
