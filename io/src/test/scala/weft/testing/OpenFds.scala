package weft.testing

/**
 * Counts this process's open file descriptors (the entries of `/proc/self/fd`), to check that
 * an IO error path closes what it opened: every IO suite runs its error paths through
 * [[assertNoGrowth]].
 */
object OpenFds:

  /** The number of open file descriptors, or -1 where `/proc/self/fd` does not exist. */
  def count(): Int =
    val names = java.io.File("/proc/self/fd").list()
    if names == null then -1 else names.length

  /**
   * Runs `op` `rounds` times (after a few warm-up rounds, which may load classes and open jars)
   * and fails if the process then holds more than `slack` descriptors more than before: a path
   * that leaks one descriptor per call grows the count by `rounds`. `op` is expected to fail in
   * the way it says; it is the caller's to assert that failure. `settle` runs before each count:
   * it waits for descriptors the process closes asynchronously (a local server's ends of the
   * connections `op` made), which would otherwise be counted while still closing.
   */
  def assertNoGrowth(
      what: String,
      rounds: Int = 100,
      slack: Int = 10,
      settle: () => Unit = () => ()
  )(op: => Unit)(using munit.Location): Unit =
    for _ <- 0 until 3 do op
    settle()
    val before = count()
    munit.Assertions.assume(before >= 0, "no /proc/self/fd here")
    for _ <- 0 until rounds do op
    settle()
    val after = count()
    munit.Assertions.assert(
      after - before <= slack,
      s"$what leaks file descriptors: $before open before $rounds rounds, $after after"
    )
