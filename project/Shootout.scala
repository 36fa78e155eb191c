import sbt.*
import sbt.Keys.*
import pl.project13.scala.sbt.JmhPlugin.JmhKeys.Jmh

/**
 * The `shootout` sbt command: compiles the JMH modules, hands their classpaths to
 * `weft.shootout.Main` (in the `shootout` module), which forks one JMH JVM per workload and
 * writes `reports/latest/`.
 *
 * {{{
 * ./sbtw shootout                        # quick mode
 * ./sbtw "shootout --full"               # the seeds' own iteration counts
 * ./sbtw "shootout --smoke"              # every benchmark, one tiny iteration (CI)
 * ./sbtw "shootout --only compose-3"     # one workload (combines with the modes)
 * ./sbtw "shootout --repeat 3"           # the suite three times, then how often each verdict came
 * }}}
 */
object Shootout {

  /** The JMH modules: the id `weft.shootout.Main` knows them by, and the sbt project. */
  private val jmhModules: Seq[(String, String)] =
    Seq("bench" -> "bench", "benchScala2" -> "benchScala2")

  /** Settings for the `shootout` project: `run` forks, headless, output straight to the console. */
  val projectSettings: Seq[Setting[?]] = Seq(
    run / fork := true,
    run / connectInput := false,
    run / outputStrategy := Some(StdoutOutput),
    run / baseDirectory := (ThisBuild / baseDirectory).value,
    run / javaOptions ++= Seq("-Djava.awt.headless=true", "-Xmx1g") ++ JvmFlags.unsafeMemoryAccess
  )

  /** The command itself; register with `commands += Shootout.command`. */
  val command: Command =
    Command.args(
      "shootout",
      "[--quick|--full|--smoke] [--only <workload-id>[,<id>...]] [--repeat <n>]"
    ) {
      (state0, args) =>
        var state = state0
        def run[T](key: TaskKey[T]): T = {
          val (next, value) = Project.extract(state).runTask(key, state)
          state = next
          value
        }
        val root = Project.extract(state).get(ThisBuild / baseDirectory)
        val props = new java.util.Properties()
        jmhModules.foreach { case (id, project) =>
          val cp = run(LocalProject(project) / Jmh / fullClasspath)
          props.setProperty(
            s"classpath.$id",
            cp.files.map(_.getAbsolutePath).mkString(java.io.File.pathSeparator)
          )
        }
        val jvmOptions = run(LocalProject("bench") / Jmh / javaOptions)
        props.setProperty("jvmOptions", jvmOptions.mkString("\u0001"))
        props.setProperty("rootDir", root.getAbsolutePath)
        peerVersions.foreach { case (name, v) => props.setProperty(s"version.$name", v) }
        val configFile = root / "target" / "shootout" / "run.properties"
        IO.createDirectory(configFile.getParentFile)
        sbt.io.Using.fileOutputStream()(configFile)(out =>
          props.store(out, "written by the shootout sbt command")
        )
        val mainArgs =
          (Seq("--config", configFile.getAbsolutePath) ++ args).map(quote).mkString(" ")
        val (next, _) = Project
          .extract(state)
          .runInputTask(
            LocalProject("shootout") / Compile / runMain,
            s" weft.shootout.Main $mainArgs",
            state
          )
        next
    }

  /** Every peer and tool version the report header lists. */
  private def peerVersions: Seq[(String, String)] = Seq(
    "Scala 3" -> Versions.scala3,
    "Scala 2.13" -> Versions.scala213,
    "ox" -> Versions.ox,
    "jox" -> Versions.jox,
    "cats-effect" -> Versions.catsEffect,
    "ZIO" -> Versions.zio,
    "Pekko actor" -> Versions.pekko,
    "fs2" -> Versions.fs2,
    "ZIO Streams" -> Versions.zioStreams,
    "Pekko Streams" -> Versions.pekko,
    "scala-async" -> Versions.scalaAsync,
    "JCTools" -> Versions.jctools,
    "resilience4j" -> Versions.resilience4j,
    "spymemcached" -> Versions.spymemcached,
    "xmemcached" -> Versions.xmemcached,
    "folsom" -> Versions.folsom,
    "Caffeine" -> Versions.caffeine,
    "sbt-jmh" -> "0.4.8"
  )

  private def quote(s: String): String =
    if (s.exists(c => c.isWhitespace || c == '"')) "\"" + s.replace("\"", "\\\"") + "\"" else s
}
