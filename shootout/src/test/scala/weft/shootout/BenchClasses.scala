package weft.shootout

import java.io.File
import java.lang.annotation.Annotation
import java.lang.reflect.Modifier
import java.net.URLClassLoader
import java.nio.file.Files
import scala.jdk.CollectionConverters.*

/**
 * The `@Benchmark` methods of a JMH module, found by reflection on its compiled classes: the
 * listing JMH itself would print (`weft.bench.Compose3.weft`), without running JMH. The build
 * hands each module's classpath to the forked tests (`weft.shootout.classpath.<module id>`);
 * the classes load in a loader of their own, so the peers' libraries never meet the tests'.
 */
object BenchClasses:

  /** The full names of `module`'s benchmarks, sorted. */
  def listing(module: Module): Seq[String] = cache.getOrElseUpdate(module, load(module))

  private val cache = scala.collection.mutable.Map.empty[Module, Seq[String]]

  private def load(module: Module): Seq[String] =
    val property = s"weft.shootout.classpath.${module.id}"
    val classpath = Option(System.getProperty(property)).getOrElse(
      throw IllegalStateException(s"$property is not set: run the tests through sbt")
    )
    val entries = classpath.split(File.pathSeparator).filter(_.nonEmpty).map(File(_))
    val loader = URLClassLoader(entries.map(_.toURI.toURL), ClassLoader.getPlatformClassLoader)
    try
      val benchmark = loader.loadClass("org.openjdk.jmh.annotations.Benchmark")
        .asInstanceOf[Class[? <: Annotation]]
      val names =
        for
          dir <- entries.filter(_.isDirectory).toSeq
          className <- classesUnder(dir, "weft/bench")
          cls = Class.forName(className, false, loader)
          // JMH generates benchmarks for concrete classes only; their inherited methods count
          if !Modifier.isAbstract(cls.getModifiers) && !cls.isInterface
          method <- cls.getMethods.toSeq if method.isAnnotationPresent(benchmark)
        yield s"$className.${method.getName}"
      names.distinct.sorted
    finally loader.close()

  /** The top-level classes (no `$` in the name) under `prefix` of a class directory. */
  private def classesUnder(dir: File, prefix: String): Seq[String] =
    val root = dir.toPath.resolve(prefix)
    if !Files.isDirectory(root) then Nil
    else
      val stream = Files.walk(root)
      try
        stream.iterator.asScala.map(p => dir.toPath.relativize(p).toString)
          .filter(n => n.endsWith(".class") && !n.contains("$"))
          .map(_.stripSuffix(".class").replace(File.separatorChar, '.')).toSeq
      finally stream.close()
