package weft.shootout

/**
 * The library whose code a contender runs, by the name the report header lists its version
 * under (`project/Shootout.scala`, `peerVersions`) where it has one.
 */
enum Library(val name: String):
  /** weft itself. */
  case Weft extends Library("weft")

  /** The JDK alone: threads, `java.util.concurrent`, `java.nio`. */
  case Jdk extends Library("JDK")

  /** The Scala standard library's `scala.concurrent.Future`. */
  case ScalaStd extends Library("Scala standard library")

  /** scala-async (Scala 2.13 only). */
  case ScalaAsync extends Library("scala-async")

  /** ox, structured concurrency on virtual threads. */
  case Ox extends Library("ox")

  /** jox, the channels under ox. */
  case Jox extends Library("jox")

  /** cats-effect's `IO`. */
  case CatsEffect extends Library("cats-effect")

  /** ZIO. */
  case Zio extends Library("ZIO")

  /** Pekko's actors. */
  case Pekko extends Library("Pekko actor")

  /** fs2's `Stream`, on cats-effect's `IO`. */
  case Fs2 extends Library("fs2")

  /** ZIO Streams' `ZStream`. */
  case ZioStreams extends Library("ZIO Streams")

  /** Pekko Streams, on Pekko's actors. */
  case PekkoStreams extends Library("Pekko Streams")

  /** resilience4j's rate limiter. */
  case Resilience4j extends Library("resilience4j")

  /** The spymemcached client. */
  case Spymemcached extends Library("spymemcached")

  /** The xmemcached client. */
  case Xmemcached extends Library("xmemcached")

  /** The folsom client. */
  case Folsom extends Library("folsom")

  /** Caffeine, the caching library (its coalescing `AsyncCache`). */
  case Caffeine extends Library("Caffeine")
