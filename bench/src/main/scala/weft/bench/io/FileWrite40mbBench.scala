package weft.bench.io

import java.nio.file.{Files, Path, StandardOpenOption as O}
import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, await}
import weft.io.PIOHelper

/**
 * Workload `file-write-40mb` (seed 002): create or truncate, write 40 MB, close, on a tmpfs when
 * present. Every contender loops [[FileWrite40mbBench.Batch]] times inside one virtual thread.
 *
 *   - `weft`: `PIOHelper.withFile(path, CREATE, WRITE, TRUNCATE_EXISTING)(_.writeString(s).await)`
 *   - `jdkFiles`: `java.nio.file.Files.writeString(path, s)` (same options by default)
 *   - `asyncChannel`: `AsynchronousFileChannel` + `Future.withResolver` (ADR 0002)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
class FileWrite40mbBench:
  import FileWrite40mbBench.Batch

  private var dir: Path = null
  private var file: Path = null
  private var name: String = null
  private val content = IoBenchSupport.text(40 * 1024 * 1024)

  @Setup(Level.Trial)
  def setup(): Unit =
    dir = IoBenchSupport.tempDir()
    file = dir.resolve("large-out.txt")
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

/** Parameters of [[FileWrite40mbBench]]. */
object FileWrite40mbBench:
  /** Operations per benchmark invocation (the handoff is negligible next to 40 MB). */
  inline val Batch = 4
