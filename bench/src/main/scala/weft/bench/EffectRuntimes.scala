package weft.bench

/**
 * How the benchmarks run an effect-system peer from the JMH thread, written once for every
 * bench class: cats-effect by one `unsafeRunSync` on its global runtime, ZIO by one
 * `unsafe.run` on its default runtime, the whole measured loop as one effect. Both are
 * `inline`, so a benchmark calling them compiles to the call written out: what is measured does
 * not change. A new cats-effect or ZIO contender of a workload calls these.
 */
object EffectRuntimes:

  /** Runs `io` on cats-effect's global runtime and returns its value, blocking the caller. */
  inline def runCats[A](io: _root_.cats.effect.IO[A]): A =
    io.unsafeRunSync()(using _root_.cats.effect.unsafe.implicits.global)

  /**
   * Runs `program` on ZIO's default runtime and returns its value, blocking the caller; a
   * failure is thrown as ZIO's `FiberFailure`.
   */
  inline def runZio[E, A](program: _root_.zio.ZIO[Any, E, A]): A =
    _root_.zio.Unsafe.unsafe(implicit u =>
      _root_.zio.Runtime.default.unsafe.run(program).getOrThrowFiberFailure()
    )
