import sbt._

/** Pinned versions: each one resolves from Maven Central (see DESIGN.md, "Peers"). */
object Versions {
  val scala3 = "3.3.7"
  val scala213 = "2.13.16"
  val munit = "1.3.0"
  val ox = "1.0.0"
  val jox = "1.0.1"
  val catsEffect = "3.7.1"
  val zio = "2.1.26"
  val pekko = "1.4.0"
  val fs2 = "3.12.2"
  val zioStreams = "2.1.26"
  val scalaAsync = "1.0.1"
  val jctools = "4.0.7"
  val resilience4j = "2.4.0"
  val lincheck = "2.39"
  val archunit = "1.5.0"
  val spymemcached = "2.12.3"
  val xmemcached = "2.4.9"
  val folsom = "1.21.0"
  val caffeine = "3.3.1"
  val xchart = "3.8.8"
  val ujson = "4.0.2"
  val slf4j = "2.0.17"
  val logback = "1.5.18"
}
