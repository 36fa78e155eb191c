package weft.bench.io

import java.nio.file.{Files, Path, StandardOpenOption}
import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, await}
import weft.io.PIOHelper

/**
 * Workload `file-read-40mb` (seed 002): open, read and close a 40 MB file, on a tmpfs when
 * present. Every contender loops [[FileRead40mbBench.Batch]] times inside one virtual thread.
 *
 *   - `weft`: `PIOHelper.withFile(path)(_.readString(Size).await)` (blocking channel in a future)
 *   - `jdkFiles`: `java.nio.file.Files.readString(path)`
 *   - `asyncChannel`: `AsynchronousFileChannel` + `Future.withResolver` (ADR 0002's rejected
 *     design)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
class FileRead40mbBench:
  import FileRead40mbBench.{Batch, Size}

  private var dir: Path = null
  private var file: Path = null
  private var name: String = null

  @Setup(Level.Trial)
  def setup(): Unit =
    dir = IoBenchSupport.tempDir()
    file = dir.resolve("large.txt")
    Files.writeString(file, IoBenchSupport.text(Size))
    name = file.toString

  @TearDown(Level.Trial)
  def tearDown(): Unit = IoBenchSupport.deleteDir(dir)

  @Benchmark
  @OperationsPerInvocation(Batch)
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    var n = 0
    var i = 0
    while i < Batch do
      n += PIOHelper.withFile(name, StandardOpenOption.READ)(_.readString(Size).await).length
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
      n += IoBenchSupport.asyncChannelReadString(file, Size).await.length
      i += 1
    n

/** Parameters of [[FileRead40mbBench]]. */
object FileRead40mbBench:
  /** Operations per benchmark invocation (the handoff is negligible next to 40 MB). */
  inline val Batch = 4

  /** The file size: 40 MiB. */
  inline val Size = 40 * 1024 * 1024
