import scala.sys.process._

/**
 * The one decision about JDK-dependent JVM flags, for every JVM the build forks (tests, JMH,
 * the shootout, which hands the build's flags on to the JVMs it starts). `./sbtw` makes the same
 * decision, by the same rule, for sbt's own JVM, which starts before this code can run.
 */
object JvmFlags {

  /**
   * Allows `sun.misc.Unsafe`'s memory access, which Scala 3.3's lazy vals use: from JDK 24 the
   * JDK warns on first use otherwise (the flag exists from JDK 23; JDK 21 refuses it).
   */
  val UnsafeMemoryAccess = "--sun-misc-unsafe-memory-access=allow"

  /** [[UnsafeMemoryAccess]] if the JDK running the build accepts it (asked, not guessed from its version). */
  lazy val unsafeMemoryAccess: Seq[String] = {
    val exe = new java.io.File(new java.io.File(sys.props("java.home"), "bin"), "java").getPath
    val accepted = Process(Seq(exe, UnsafeMemoryAccess, "-version")).!(ProcessLogger(_ => ())) == 0
    if (accepted) Seq(UnsafeMemoryAccess) else Nil
  }
}
