package weft.memcached

/** The public API of `memcached` is the recorded one (see [[weft.testing.PublicApiChecks]]). */
class PublicApiSuite extends weft.testing.PublicApiChecks("memcached", classOf[MemcachedClient]),
      weft.testing.Deadlined
