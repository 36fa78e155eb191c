package weft.bench.io

import java.nio.file.{Files, Path, StandardOpenOption as O}
import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, await}
import weft.io.PIOHelper

/**
 * Workload `file-write-4b` (seed 002): create or truncate, write 4 bytes, close, on a tmpfs when
 * present. Every contender loops [[FileWrite4bBench.Batch]] times inside one virtual thread.
 *
 *   - `weft`: `PIOHelper.withFile(path, CREATE, WRITE, TRUNCATE_EXISTING)(_.writeString(s).await)`
 *   - `jdkFiles`: `java.nio.file.Files.writeString(path, s)` (same options by default)
 *   - `asyncChannel`: `AsynchronousFileChannel` + `Future.withResolver` (ADR 0002)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
class FileWrite4bBench:
  import FileWrite4bBench.Batch

  private var dir: Path = null
  private var file: Path = null
  private var name: String = null
  private val content = "weft"

  @Setup(Level.Trial)
  def setup(): Unit =
    dir = IoBenchSupport.tempDir()
    file = dir.resolve("small-out.txt")
    name = file.toString

  @TearDown(Level.Trial)
  def tearDown(): Unit = IoBenchSupport.deleteDir(dir)

  @Benchmark
  @OperationsPerInvocation(Batch)
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    var n = 0
    var i = 0
    while i < Batch do
      n += PIOHelper.withFile(name, O.CREATE, O.WRITE, O.TRUNCATE_EXISTING)(
        _.writeString(content).await
      )
      i += 1
    n

  @Benchmark
  @OperationsPerInvocation(Batch)
  def jdkFiles(): Int = IoBenchSupport.onVirtualThread:
    var i = 0
    while i < Batch do
      Files.writeString(file, content)
      i += 1
    i

  @Benchmark
  @OperationsPerInvocation(Batch)
  def asyncChannel(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    var n = 0
    var i = 0
    while i < Batch do
      n += IoBenchSupport.asyncChannelWriteString(file, content).await
      i += 1
    n

/** Parameters of [[FileWrite4bBench]]. */
object FileWrite4bBench:
  /** Operations per benchmark invocation (amortises the platform-to-virtual handoff). */
  inline val Batch = 1000
