package weft.bench.memcached

import java.lang.management.ManagementFactory

/**
 * The benchmark JVM's own CPU time: every thread of the process (the client's, the JMH
 * harness's, the JIT's and the collector's), so the harness's share is the same for every
 * contender and the differences between rows are the clients'. Read at the points where the
 * server's CPU is read ([[McBench]], [[MemcachedCluster3Bench]]).
 */
object ClientCpu:

  private val os = ManagementFactory.getOperatingSystemMXBean

  /** The process's CPU time in nanoseconds so far, or -1 where the JVM cannot tell. */
  def nanos(): Long = os match
    case sun: com.sun.management.OperatingSystemMXBean => sun.getProcessCpuTime
    case _                                             => -1L
