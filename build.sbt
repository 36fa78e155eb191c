// weft: direct-style structured concurrency for Scala 3 on JDK 21+ virtual threads.
// Module layout and layering: see README.md and docs/adr/.

val jdkMajor: Int = sys.props("java.specification.version").split('.').last.toInt

Global / onLoad := {
  val previous = (Global / onLoad).value
  state => {
    if (jdkMajor < 21)
      sys.error(
        s"weft needs JDK 21 or newer, but sbt runs on JDK $jdkMajor (${sys.props("java.home")}). " +
          "Run ./sbtw (it finds a JDK 21+), or set JAVA_HOME to a JDK 21+."
      )
    previous(state)
  }
}

/**
 * JVM flags for every forked JVM (tests, JMH, shootout). Native access lets weft's timer thread
 * ask Linux for a small timer slack (weft.runtime.TimerSlack); the other contenders make no
 * native calls, so it changes nothing for them.
 */
val forkedJvmFlags: Seq[String] =
  JvmFlags.unsafeMemoryAccess ++
    Seq("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xss1m")

/**
 * Heap flags of every benchmark JVM (JMH forks, and through the shootout its external
 * harnesses): a fixed 1 GiB heap with fixed generation sizes, every page touched at start.
 * With the JVM's default (a heap that grows and shrinks after each collection) ParallelGC kept
 * moving the young generation's boundary, and allocation then ran into fresh pages: on a
 * virtual machine a page fault can cost microseconds (the host may back a page only once the
 * guest touches it), and `perf` put the slow seconds of a benchmark in the kernel's page
 * clearing (docs/perf/keyed.md, where sequentially-batch-1000 re-checks it). Pre-touching costs
 * time at each JVM start, outside any measurement. The memory workloads set their own heaps.
 */
val benchHeapFlags: Seq[String] =
  Seq("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-XX:-UseAdaptiveSizePolicy")

ThisBuild / scalaVersion := Versions.scala3
ThisBuild / organization := "dev.weft"
ThisBuild / version := "0.1.0-SNAPSHOT"
ThisBuild / scalacOptions ++= Seq("-release", "21", "-deprecation", "-feature", "-unchecked")
ThisBuild / javacOptions ++= Seq("--release", "21")

lazy val testSettings = Seq(
  libraryDependencies += "org.scalameta" %% "munit" % Versions.munit % Test,
  Test / fork := true,
  Test / javaOptions ++= forkedJvmFlags ++ Seq("-Xmx2g"),
  Test / parallelExecution := false,
  Test / testOptions += Tests.Argument(TestFrameworks.MUnit, "-b")
)

/**
 * The guide's examples (`src/test/scala/weft/guide`) compile as a user's strict build would:
 * with `-Wnonunit-statement` (which the README recommends) and every warning an error, so an
 * example that discards a value does not compile. The other tests may discard values (e.g. the
 * exception `intercept` returns), so there that warning is silenced. In Scala 3's `-Wconf` the
 * last matching rule wins: the guide's rule comes second.
 */
lazy val guideStrict = Test / scalacOptions ++= Seq(
  "-Wnonunit-statement",
  "-Wconf:msg=unused value of type:s,src=.*/weft/guide/.*:e"
)

/**
 * The front page of a library module's Scaladoc: `<module>/rootdoc.md`, where a new user is told
 * where to start (the `doc` tool's `-doc-root-content`).
 */
lazy val docFrontPage = Compile / doc / scalacOptions ++= Seq(
  "-doc-root-content",
  (baseDirectory.value / "rootdoc.md").getPath
)

/** For the library modules: `PublicApiSuite` reads the compiled TASTy (weft.testing.PublicApi). */
lazy val publicApiCheck =
  libraryDependencies += "org.scala-lang" %% "scala3-tasty-inspector" % Versions.scala3 % Test

lazy val root = (project in file("."))
  .aggregate(core, slf4j, io, memcached, testkit, bench, benchScala2, shootout)
  .settings(publish / skip := true, name := "weft-root", commands += Shootout.command)

/** The library: sources, listeners, futures, channels, timers, keyed executor, interop. */
lazy val core = (project in file("core"))
  .settings(testSettings, publicApiCheck, guideStrict, docFrontPage)
  .settings(
    name := "weft-core",
    libraryDependencies ++= Seq(
      "org.jetbrains.kotlinx" % "lincheck-jvm" % Versions.lincheck % Test,
      "com.tngtech.archunit" % "archunit" % Versions.archunit % Test
    ),
    // lincheck 2.39 brings ASM 9.6, which cannot read JDK 25 class files; 9.8 can.
    dependencyOverrides ++= Seq("asm", "asm-commons", "asm-util", "asm-tree", "asm-analysis")
      .map(a => "org.ow2.asm" % a % "9.8")
  )

/**
 * The MDC bridge: slf4j's MDC carried into the futures a block starts. slf4j-api is optional,
 * so that depending on weft-slf4j never pulls a logging API into an application that has none;
 * the test runs with logback, whose MDC is not inherited by new threads.
 */
lazy val slf4j = (project in file("slf4j"))
  .dependsOn(core % "compile->compile;test->test")
  .settings(testSettings, publicApiCheck)
  .settings(
    name := "weft-slf4j",
    libraryDependencies ++= Seq(
      "org.slf4j" % "slf4j-api" % Versions.slf4j % Optional,
      "ch.qos.logback" % "logback-classic" % Versions.logback % Test
    )
  )

/**
 * The test kit, for a user's Test scope: virtual time (`VirtualTime.run`), in which an hour of
 * timers runs in milliseconds, with deadlock reports.
 */
lazy val testkit = (project in file("testkit"))
  .dependsOn(core % "compile->compile;test->test")
  .settings(testSettings, publicApiCheck, guideStrict, docFrontPage)
  .settings(name := "weft-testkit")

/** POSIX-like files, UDP and TCP as futures. */
lazy val io = (project in file("io"))
  .dependsOn(core % "compile->compile;test->test")
  .settings(testSettings, publicApiCheck, guideStrict, docFrontPage)
  .settings(name := "weft-io")

/**
 * A direct-style memcached client on weft's core: meta protocol, pipelining, Ketama. weft-io and the peers are
 * test dependencies only (the golden Ketama test places keys with their own locators).
 */
lazy val memcached = (project in file("memcached"))
  .dependsOn(core % "compile->compile;test->test", io % "test->compile", testkit % "test->compile")
  .settings(testSettings, publicApiCheck, guideStrict, docFrontPage)
  .settings(
    name := "weft-memcached",
    libraryDependencies ++= Seq(
      "net.spy" % "spymemcached" % Versions.spymemcached % Test,
      "com.googlecode.xmemcached" % "xmemcached" % Versions.xmemcached % Test
    )
  )

/** JMH benchmarks, Scala 3: weft beside its peers. Never published. */
lazy val bench = (project in file("bench"))
  .dependsOn(core, io, memcached)
  .enablePlugins(JmhPlugin)
  .settings(testSettings)
  .settings(
    name := "weft-bench",
    publish / skip := true,
    libraryDependencies ++= Seq(
      "com.softwaremill.ox" %% "core" % Versions.ox,
      "com.softwaremill.jox" % "channels" % Versions.jox,
      "org.typelevel" %% "cats-effect" % Versions.catsEffect,
      "dev.zio" %% "zio" % Versions.zio,
      "org.apache.pekko" %% "pekko-actor" % Versions.pekko,
      // Flow workloads' streaming peers; every Pekko module pinned to the same version.
      "org.apache.pekko" %% "pekko-stream" % Versions.pekko,
      "co.fs2" %% "fs2-core" % Versions.fs2,
      "dev.zio" %% "zio-streams" % Versions.zioStreams,
      "org.jctools" % "jctools-core" % Versions.jctools,
      "io.github.resilience4j" % "resilience4j-ratelimiter" % Versions.resilience4j,
      "net.spy" % "spymemcached" % Versions.spymemcached,
      "com.googlecode.xmemcached" % "xmemcached" % Versions.xmemcached,
      "com.spotify" % "folsom" % Versions.folsom,
      "com.github.ben-manes.caffeine" % "caffeine" % Versions.caffeine
    ),
    Jmh / javaOptions := forkedJvmFlags ++ benchHeapFlags
  )

/** JMH benchmarks for peers that exist only for Scala 2.13 (scala-async). */
lazy val benchScala2 = (project in file("bench-scala2"))
  .enablePlugins(JmhPlugin)
  .settings(
    name := "weft-bench-scala2",
    publish / skip := true,
    scalaVersion := Versions.scala213,
    scalacOptions := Seq("-Xasync", "-release", "21"),
    libraryDependencies += "org.scala-lang.modules" %% "scala-async" % Versions.scalaAsync
  )

/** The main job: runs the JMH suite, writes reports/latest (REPORT.md, charts, JSON). */
lazy val shootout = (project in file("shootout"))
  .settings(testSettings)
  .settings(Shootout.projectSettings)
  .settings(
    name := "weft-shootout",
    publish / skip := true,
    // ContendersSuite reflects on the JMH classes and ReadmeSuite reads the README: the forked
    // tests get the two JMH modules' classpaths (in a loader of their own) and the README's path.
    Test / javaOptions ++= Seq(
      "-Dweft.shootout.classpath.bench=" + (bench / Compile / fullClasspath).value.files
        .mkString(java.io.File.pathSeparator),
      "-Dweft.shootout.classpath.benchScala2=" + (benchScala2 / Compile / fullClasspath).value
        .files.mkString(java.io.File.pathSeparator),
      "-Dweft.shootout.readme=" + (baseDirectory.value / "README.md").getAbsolutePath
    ),
    libraryDependencies ++= Seq(
      "org.knowm.xchart" % "xchart" % Versions.xchart,
      "com.lihaoyi" %% "ujson" % Versions.ujson
    )
  )
