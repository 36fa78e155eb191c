package weft.shootout

import java.lang.management.ManagementFactory
import java.nio.file.{Files, Path}
import scala.jdk.CollectionConverters.*
import scala.util.Try

/**
 * The machine a run happens on, for the report header.
 *
 * @param loadAverage
 *   the 1-minute load average when the run started (other work on the machine skews results)
 */
final case class Machine(
    cpu: String,
    cores: Int,
    memoryBytes: Long,
    os: String,
    jdk: String,
    loadAverage: Double
)

/** Reading the machine's description. */
object Machine:

  /** Describes the machine this JVM runs on (the benchmark JVMs run on the same JDK). */
  def current(): Machine =
    val os = ManagementFactory.getOperatingSystemMXBean
    val memory = os match
      case sun: com.sun.management.OperatingSystemMXBean => sun.getTotalMemorySize
      case _                                             => -1L
    Machine(
      cpu = cpuModel.getOrElse(sys.props.getOrElse("os.arch", "?")),
      cores = Runtime.getRuntime.availableProcessors,
      memoryBytes = memory,
      os =
        s"${sys.props("os.name")} ${sys.props("os.version")} (${sys.props("os.arch")})" + distribution
          .fold("")(d => s", $d"),
      jdk =
        s"${sys.props("java.vm.name")} ${sys.props("java.runtime.version")} (${sys.props("java.vendor")})",
      loadAverage = os.getSystemLoadAverage
    )

  private def cpuModel: Option[String] = Try {
    Files.readAllLines(Path.of("/proc/cpuinfo")).asScala.find(_.startsWith("model name")).map(
      _.split(":", 2)(1).trim
    )
  }.toOption.flatten

  private def distribution: Option[String] = Try {
    Files.readAllLines(Path.of("/etc/os-release")).asScala.find(_.startsWith("PRETTY_NAME=")).map(
      _.stripPrefix("PRETTY_NAME=").stripPrefix("\"").stripSuffix("\"")
    )
  }.toOption.flatten

  /** The current 1-minute load average (negative where unavailable). */
  def loadNow(): Double = ManagementFactory.getOperatingSystemMXBean.getSystemLoadAverage
