package weft

import com.tngtech.archunit.core.importer.ClassFileImporter
import scala.jdk.CollectionConverters.*

/**
 * The layering of core that the README draws, checked on the compiled classes: a class may use
 * only classes of its own layer or of the layers below it. A new top-level name in package
 * `weft` must be given a layer here, so the picture cannot drift silently.
 */
class LayersSuite extends munit.FunSuite:

  /** Layers, lowest first: each entry is a layer's name and the top-level names it holds. */
  val layers: Seq[(String, Set[String])] = Seq(
    "runtime" -> Set("runtime"),
    "listeners and sources" -> Set(
      "CellSegment",
      "Listener",
      "ListenerList",
      "ListenerLock",
      "NumberedLock",
      "Source",
      "OriginalSource",
      "RaceSource",
      "SelectCase",
      "race",
      "select"
    ),
    "async" -> Set(
      "Async",
      "JvmAsync",
      "Runner",
      "CallerRunner",
      "Selector",
      "OwnedLock",
      "Parking",
      "SelectClause",
      "Cancellable",
      "CompletionGroup",
      "GroupEntry",
      "Cancellation",
      "ForkHook",
      "ForkLocal",
      "UnobservedFailures",
      "FailureLog",
      "sourceValues"
    ),
    "futures" -> Set(
      "Future",
      "CoreFuture",
      "CoreFutures",
      "RunnableFuture",
      "Promise",
      "futureOps",
      "Collector",
      "MutableCollector"
    ),
    // the object `Async` (its class `Async$`): the entry points, which start and join futures;
    // beside it the other scopes: supervised ones and scope handles
    "scopes" -> Set("Async$", "supervised", "SupervisorGroup", "Scope"),
    // parallel collections and races of bodies: futures in a nested scope
    "parallel" -> Set("par", "Par", "raceSuccess", "AllFailedException"),
    "time and resources" -> Set(
      "Timer",
      "StartableTimer",
      "Ticker",
      "sleep",
      "timeout",
      "Task",
      "TaskSchedule",
      "Retry",
      "retry",
      "Semaphore",
      "SemaphoreQueue",
      "SemaphoreSegment",
      "Resource"
    ),
    "resilience" -> Set("resilience"),
    "channels" -> Set("channels"),
    "keyed" -> Set("keyed"),
    "interop" -> Set("interop"),
    "apps" -> Set("WeftApp")
  )

  /** Upward references kept for now, each with its reason (none today). */
  val knownUpward: Set[(String, String)] = Set.empty

  /**
   * The top-level name of a class of package `weft` or below (`Async$package$` -> `Async`),
   * except the object `Async` (`Async$`), whose entry points sit a layer above the trait.
   */
  def topName(fullName: String): Option[String] =
    if !fullName.startsWith("weft.") then None
    else
      val rest = fullName.stripPrefix("weft.")
      if rest == "Async$" then Some("Async$")
      else Some(rest.takeWhile(c => c != '.' && c != '$'))

  def layerOf(name: String): Option[Int] = layers.indexWhere(_._2.contains(name)) match
    case -1 => None
    case i  => Some(i)

  lazy val classes = ClassFileImporter().importPackages("weft").asScala.toSeq
    .filter(c => !c.getName.contains("Suite") && c.getSource.isPresent)
    .filter(c => c.getSource.get.getUri.toString.contains("/classes/"))

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
      yield s"$from (${layers(fromLayer)._1}) -> $to (${layers(toLayer)._1}): ${d.getDescription}"
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
