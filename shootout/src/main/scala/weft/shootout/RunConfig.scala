package weft.shootout

import java.io.{File, FileInputStream}
import java.util.Properties
import scala.jdk.CollectionConverters.*
import scala.util.Using

/**
 * What the `shootout` sbt command hands over in `target/shootout/run.properties`.
 *
 * @param classpaths
 *   each JMH module's `Jmh / fullClasspath`, by [[Module.id]]
 * @param jvmOptions
 *   `bench / Jmh / javaOptions`, appended to every benchmark JVM
 * @param versions
 *   every peer's pinned version, by display name, for the report header
 */
final case class RunConfig(
    rootDir: File,
    classpaths: Map[String, String],
    jvmOptions: Seq[String],
    versions: Seq[(String, String)]
):
  /** The classpath of a module, or an error naming the missing module. */
  def classpath(m: Module): String =
    classpaths.getOrElse(
      m.id,
      throw IllegalStateException(s"no classpath for module ${m.id} in the run config")
    )

/** Loading the run config. */
object RunConfig:

  /** Reads the properties file the sbt command wrote. */
  def load(file: File): RunConfig =
    val p = Properties()
    Using.resource(FileInputStream(file))(p.load)
    val keys = p.stringPropertyNames.asScala.toSeq.sorted
    RunConfig(
      rootDir = File(p.getProperty("rootDir", ".")),
      classpaths = keys.filter(_.startsWith("classpath.")).map(k =>
        k.stripPrefix("classpath.") -> p.getProperty(k)
      ).toMap,
      jvmOptions = p.getProperty("jvmOptions", "").split('\u0001').toSeq.filter(_.nonEmpty),
      versions = keys.filter(_.startsWith("version.")).map(k =>
        k.stripPrefix("version.") -> p.getProperty(k)
      )
    )
