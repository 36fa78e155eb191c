package weft

import com.tngtech.archunit.core.importer.ClassFileImporter
import scala.jdk.CollectionConverters.*

/**
 * The layering of core that the README draws, checked on the compiled classes: a class may use
 * only classes of its own layer or of the layers below it. A layer is a set of packages (exact
 * names: one package per layer, and the internals of each layer in its `weft.internal.<layer>`
 * package) and, for the public package `weft`, which spans the layers the seed's API puts there,
 * a set of top-level names. A new package, or a new top-level name in `weft`, must be given a
 * layer here, so the picture cannot drift silently. What the other modules may use of core is
 * checked by their `PublicApiSuite` (core's public and internal API, see `ApiBoundaries`).
 */
class LayersSuite extends munit.FunSuite:

  /** A layer: its name, its packages, and its top-level names in the package `weft`. */
  final case class Layer(name: String, packages: Set[String], rootNames: Set[String] = Set.empty)

  /** Layers, lowest first. */
  val layers: Seq[Layer] = Seq(
    Layer("runtime", Set("weft.runtime", "weft.internal.runtime", "weft.internal")),
    Layer("cells", Set("weft.internal.cells")),
    Layer(
      "listeners and sources",
      Set("weft.internal.listeners"),
      Set(
        "Listener",
        "ListenerLock",
        "NumberedLock",
        "Source",
        "OriginalSource",
        "SelectCase",
        "select"
      )
    ),
    Layer(
      "async",
      Set("weft.internal.async"),
      Set(
        "Async",
        "Cancellable",
        "CompletionGroup",
        "ForkLocal",
        "UnobservedFailures",
        "sourceValues",
        "await",
        "uninterruptible"
      )
    ),
    Layer("select", Set("weft.internal.select")),
    Layer(
      "futures",
      Set("weft.internal.futures"),
      Set("Future", "Promise", "futureOps", "Collector", "MutableCollector")
    ),
    // the object `Async` (its class `Async$`): the entry points, which start and join futures;
    // beside it the other scopes: supervised ones and scope handles
    Layer(
      "scopes",
      Set("weft.internal.scopes"),
      Set("Async$", "supervised", "forkReported", "Scope")
    ),
    // parallel collections and races of bodies: futures in a nested scope
    Layer("parallel", Set.empty, Set("par", "Par", "raceSuccess", "AllFailedException")),
    Layer(
      "time and resources",
      Set("weft.internal.semaphore"),
      Set(
        "Timer",
        "StartableTimer",
        "Ticker",
        "sleep",
        "timeout",
        "onTimeout",
        "Task",
        "TaskSchedule",
        "Retry",
        "retry",
        "Semaphore",
        "Resource"
      )
    ),
    Layer("resilience", Set("weft.resilience")),
    Layer("channels", Set("weft.channels", "weft.internal.channels")),
    Layer("keyed", Set("weft.keyed", "weft.internal.keyed")),
    Layer("interop", Set("weft.interop")),
    Layer("flow", Set("weft.flow", "weft.internal.flow")),
    Layer("apps", Set.empty, Set("WeftApp", "Shutdown", "ShutdownPhases"))
  )

  /** Upward references kept for now, each with its reason (none today). */
  val knownUpward: Set[(String, String)] = Set.empty

  /**
   * The unit a class is placed by: its package, or, in the package `weft`, its top-level name
   * (`weft.Async$package$` -> `weft.Async`), except the object `Async` (`Async$`), whose entry
   * points sit a layer above the trait. `None` for classes outside weft.
   */
  def topName(fullName: String): Option[String] =
    if !fullName.startsWith("weft.") then None
    else
      val dot = fullName.lastIndexOf('.')
      val pkg = fullName.substring(0, dot)
      val simple = fullName.substring(dot + 1)
      if pkg != "weft" then Some(pkg)
      else if simple == "Async$" then Some("weft.Async$")
      else Some("weft." + simple.takeWhile(c => c != '$'))

  def layerOf(unit: String): Option[Int] =
    val i =
      if unit.startsWith("weft.") && !unit.drop(5).contains('.') && !layers.exists(_.packages(unit))
      then layers.indexWhere(_.rootNames.contains(unit.drop(5)))
      else layers.indexWhere(_.packages.contains(unit))
    if i < 0 then None else Some(i)

  lazy val classes = ClassFileImporter().importPackages("weft").asScala.toSeq
    .filter(c => !c.getName.contains("Suite") && c.getSource.isPresent)
    .filter(c => c.getSource.get.getUri.toString.contains("/classes/"))
    .filter(c => c.getSource.get.getUri.toString.contains("/core/"))

  test("every package of core is one layer's (a layer's packages are not shared)"):
    val all = layers.flatMap(_.packages)
    assertEquals(all.diff(all.distinct), Nil)
    val packages = classes.map(_.getPackageName).distinct.filter(_ != "weft")
    assertEquals(packages.filterNot(all.contains).sorted, Nil, "give these packages a layer")

  test("the README's picture names the layers, top down, with their packages"):
    val readme = java.nio.file.Files.readAllLines(
      Iterator.iterate(java.nio.file.Paths.get("").toAbsolutePath)(_.getParent)
        .takeWhile(_ != null).map(_.resolve("README.md")).find(java.nio.file.Files.exists(_))
        .getOrElse(fail("no README.md above the working directory"))
    )
      .asScala.toSeq
    val block = readme.dropWhile(!_.startsWith("Inside `core`, a layer uses only"))
      .dropWhile(_ != "```").drop(1).takeWhile(_ != "```")
    assert(block.nonEmpty, "README.md has no layer picture after 'Inside `core`, a layer ...'")
    val drawn = block.map(line => line.split("  +", 2).map(_.trim).toList).map:
      case name :: rest :: Nil => name -> rest
      case other               => fail(s"a picture line without a layer name: $other")
    assertEquals(drawn.map(_._1), layers.map(_.name).reverse, "the layers, highest first")
    for (layer, (_, text)) <- layers.reverse.zip(drawn) do
      val named = "weft(\\.[a-z]+)+".r.findAllIn(text).toSet
      assertEquals(named, layer.packages - "weft.internal", s"the packages of ${layer.name}")

  test("no class refers to a package as an object"):
    // Scala 3.3 compiles an inline body that names a `private[weft]` object of another package
    // to a read of that package as if it were an object (`weft/internal/async.MODULE$`), which
    // fails with NoClassDefFoundError when it runs.
    val packages = classes.map(_.getPackageName).toSet
    // (The unused accessors it also emits name the package only as a parameter type: harmless.)
    val refs =
      for
        c <- classes
        a <- c.getAccessesFromSelf.asScala.toSeq
        if packages(a.getTargetOwner.getName)
      yield s"${c.getName} -> ${a.getTargetOwner.getName}: ${a.getDescription}"
    assertEquals(refs.distinct.take(10), Nil)

  test("every class of core belongs to a layer"):
    val names = classes.flatMap(c => topName(c.getName)).distinct
    assert(names.length > 20, s"too few classes found: $names")
    val unassigned = names.filter(n => layerOf(n).isEmpty)
    assertEquals(unassigned, Nil, "give these top-level names a layer in LayersSuite")

  test("no class uses a class of a higher layer"):
    val upward =
      for
        c <- classes
        from <- topName(c.getName).toSeq
        fromLayer <- layerOf(from).toSeq
        d <- c.getDirectDependenciesFromSelf.asScala.toSeq
        to <- topName(d.getTargetClass.getName).toSeq
        toLayer <- layerOf(to).toSeq
        // a class's static forwarders to its own companion object are the compiler's, not a use
        if toLayer > fromLayer && !knownUpward.contains(from -> to) && to != s"$from$$"
      yield s"$from (${layers(fromLayer).name}) -> $to (${layers(toLayer).name}): ${d.getDescription}"
    assertEquals(upward.distinct.take(20), Nil)

  test("the known upward references still exist (remove them from the list once gone)"):
    val found = (for
      c <- classes
      from <- topName(c.getName).toSeq
      d <- c.getDirectDependenciesFromSelf.asScala.toSeq
      to <- topName(d.getTargetClass.getName).toSeq
      if knownUpward.contains(from -> to)
    yield from -> to).toSet
    assertEquals(found, knownUpward)
