package weft.bench.io

import java.nio.file.{Files, Path, StandardOpenOption}
import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, await}
import weft.io.PIOHelper

/**
 * Workload `file-read-4b` (seed 002): open, read and close a 4-byte file, on a tmpfs when
 * present. Every contender loops [[FileRead4bBench.Batch]] times inside one virtual thread.
 *
 *   - `weft`: `PIOHelper.withFile(path)(_.readString(4).await)` (blocking channel in a future)
 *   - `jdkFiles`: `java.nio.file.Files.readString(path)`
 *   - `asyncChannel`: `AsynchronousFileChannel` + `Future.withResolver` (ADR 0002's rejected
 *     design)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
class FileRead4bBench:
  import FileRead4bBench.Batch

  private var dir: Path = null
  private var file: Path = null
  private var name: String = null

  @Setup(Level.Trial)
  def setup(): Unit =
    dir = IoBenchSupport.tempDir()
    file = dir.resolve("small.txt")
    Files.writeString(file, "weft")
    name = file.toString

  @TearDown(Level.Trial)
  def tearDown(): Unit = IoBenchSupport.deleteDir(dir)

  @Benchmark
  @OperationsPerInvocation(Batch)
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    var n = 0
    var i = 0
    while i < Batch do
      n += PIOHelper.withFile(name, StandardOpenOption.READ)(_.readString(4).await).length
      i += 1
    n

  @Benchmark
  @OperationsPerInvocation(Batch)
  def jdkFiles(): Int = IoBenchSupport.onVirtualThread:
    var n = 0
    var i = 0
    while i < Batch do
      n += Files.readString(file).length
      i += 1
    n

  @Benchmark
  @OperationsPerInvocation(Batch)
  def asyncChannel(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    var n = 0
    var i = 0
    while i < Batch do
      n += IoBenchSupport.asyncChannelReadString(file, 4).await.length
      i += 1
    n

/** Parameters of [[FileRead4bBench]]. */
object FileRead4bBench:
  /** Operations per benchmark invocation (amortises the platform-to-virtual handoff). */
  inline val Batch = 1000
