package weft

import java.nio.file.Files
import weft.testing.{AdrNames, GuideExamples}

/**
 * The ADRs of `docs/adr` stay true to the code: every code identifier an ADR names in backticks
 * is a name the code holds (a Scala file under a module's `src` tree, main or test, or the build
 * definition), a JDK name the running JDK has, a peer's name from the short list below, or a
 * name the code no longer holds whose removal an ADR records. And the index,
 * `docs/adr/README.md`, lists exactly the ADRs present, and neither ADRs nor guide pages cite
 * tracker issues or work sessions by number. The tests from the fifth on check that each check
 * finds what it is for.
 */
class AdrIdentifiersSuite extends munit.FunSuite:

  // Names from the JDK that no weft source mentions, each with the class (and `#member`) that
  // `Class.forName` must find in the running JDK, so a misspelt JDK name still fails.
  private val Jdk: Map[String, String] = Map(
    "InterruptibleChannel" -> "java.nio.channels.InterruptibleChannel",
    "SO_TIMEOUT" -> "java.net.SocketOptions#SO_TIMEOUT",
    "StructuredTaskScope" -> "java.util.concurrent.StructuredTaskScope",
    "ScopedValue" -> "java.lang.ScopedValue",
    "HashMap.Node" -> "java.util.HashMap$Node"
  )

  // Peers' names, which weft does not depend on and nothing here can check: each is named by an
  // ADR to compare weft's choice with theirs.
  private val Peers: Map[String, String] = Map(
    "coroutineScope" -> "kotlinx.coroutines' scope that fails when a child fails",
    "Schedule.recurs" -> "ZIO's schedule of n repetitions",
    "PosixLikeIO" -> "gears' IO object, the specification's design that weft.io replaced"
  )

  // weft's own names that the code no longer holds, with the ADR that removed them. An ADR that
  // names one must be that ADR or cite it, so the reader learns where the thing went.
  private val Removed: Map[String, String] = Map(
    "awaitResult" -> "0008",
    "WatchingGroup" -> "0013",
    "PlatformWait" -> "0016",
    "awaitScopeBody" -> "0016",
    "spinUntilExited" -> "0016",
    "PlatformSpinNanos" -> "0016",
    "MaxPlatformSpinners" -> "0016",
    "JvmAsync" -> "0024",
    "awaitSelect" -> "0024",
    "OwnedLock" -> "0024",
    "CoreFutures" -> "0024",
    "SemaphoreSegment" -> "0024"
  )

  private lazy val root = GuideExamples.root
  private lazy val adrs = AdrNames.adrs(root)
  // This suite and its helper name removed and made-up identifiers on purpose: not code.
  private lazy val code =
    AdrNames.codeWords(root, except = Set("AdrIdentifiersSuite.scala", "AdrNames.scala"))

  /** The parts of `n`'s path that no code file holds. */
  private def missing(n: AdrNames.Named, files: Seq[Set[String]]): Seq[String] =
    if AdrNames.inCode(n.path, files) then Nil
    else n.path.filterNot(p => files.exists(_(p)))

  /** Each named identifier that is neither in the code nor on a list, as "file: `text`". */
  private def unknown(docs: Seq[(String, String)], files: Seq[Set[String]]): Seq[String] =
    for
      (file, text) <- docs
      n <- AdrNames.named(file, text)
      if !AdrNames.inCode(n.path, files)
      if !Jdk.get(n.name).exists(AdrNames.inJdk) && !Peers.contains(n.name)
      gone = missing(n, files)
      if gone.isEmpty || !gone.forall(Removed.contains)
    yield s"$file: `${n.text}`"

  /** Each ADR that names a removed identifier without citing the ADR that removed it. */
  private def uncited(docs: Seq[(String, String)], files: Seq[Set[String]]): Seq[String] =
    for
      (file, text) <- docs
      n <- AdrNames.named(file, text)
      part <- missing(n, files)
      by <- Removed.get(part)
      if !file.startsWith(by) && !text.contains(by)
    yield s"$file names `$part`, removed by ADR $by, without citing it"

  /** What is wrong with the index: a file missing, a file listed that is not there, a bad row. */
  private def indexProblems(readme: String, files: Seq[String]): Seq[String] =
    val rows = AdrNames.indexRows(readme)
    val listed = rows.map(_._2)
    files.filterNot(listed.contains).map(f => s"$f is not in the index") ++
      listed.filterNot(files.contains).map(f => s"the index lists $f, which is not there") ++
      listed.diff(listed.distinct).map(f => s"the index lists $f twice") ++
      rows.filterNot((n, f) => f.startsWith(n + "-")).map((n, f) => s"row $n links to $f")

  test("every identifier an ADR names is in the code, the JDK, the peers' list or removed"):
    assert(adrs.size >= 24, s"ADRs found: ${adrs.map(_._1)}")
    assert(code.size >= 100, s"code files found: ${code.size}")
    val found = unknown(adrs, code)
    assert(
      found.isEmpty,
      found.mkString("ADRs name identifiers the code does not hold:\n", "\n", "")
    )

  test("an ADR that names a removed identifier cites the ADR that removed it"):
    val found = uncited(adrs, code)
    assert(found.isEmpty, found.mkString("\n"))

  test("the lists hold only names ADRs use; JDK names resolve; removed names are gone"):
    val names = adrs.flatMap((f, t) => AdrNames.named(f, t)).flatMap(n => n.name +: n.path).toSet
    val unused = (Jdk.keySet ++ Peers.keySet ++ Removed.keySet).filterNot(names)
    assert(unused.isEmpty, s"listed but named by no ADR (drop them): $unused")
    val unresolved = Jdk.filterNot((_, spec) => AdrNames.inJdk(spec))
    assert(unresolved.isEmpty, s"not in this JDK: $unresolved")
    val back = Removed.keySet.filter(r => code.exists(_(r)))
    assert(back.isEmpty, s"listed as removed but in the code again: $back")
    val unsaid =
      Removed.filterNot((r, by) => adrs.exists((f, t) => f.startsWith(by) && t.contains(r)))
    assert(unsaid.isEmpty, s"the removing ADR does not name what it removed: $unsaid")

  test("the index, docs/adr/README.md, lists exactly the ADRs present, each under its number"):
    val readme = Files.readString(root.resolve("docs/adr/README.md"))
    val found = indexProblems(readme, adrs.map(_._1))
    assert(found.isEmpty, found.mkString("\n"))

  test("no ADR and no guide page cites a tracker issue or a work session by number"):
    val TrackerRef = """(?i)\b(issues?|sessions?) \d+""".r
    assert(TrackerRef.findFirstIn("as Issue 22 asked, in sessions 9-10").isDefined)
    val readme = "docs/adr/README.md" -> Files.readString(root.resolve("docs/adr/README.md"))
    val found =
      for
        (file, text) <- (adrs :+ readme) ++ GuideExamples.pages(root)
        ref <- TrackerRef.findAllIn(text)
      yield s"$file: $ref"
    assert(found.isEmpty, found.mkString("say the thing itself, not its number:\n", "\n", ""))

  test("names: identifiers and dotted paths, not commands, flags, paths or numbers"):
    val text = "`Foo`, `Foo.bar`, `weft.runtime.Fiber`, `read()`, `Retry(0)`, `Seq[T]`, " +
      "`./sbtw stress`, `-Xasync`, `docs/perf/core.md`, `64`, `c -> c + 1`, `f.result: Try[T]`, " +
      "`Future { ... }`, `where(v) { body }`, `done ->\n   RETIRED`, `Bar`"
    val names = AdrNames.named("x.md", text).map(_.name)
    assertEquals(
      names,
      Seq("Foo", "Foo.bar", "weft.runtime.Fiber", "read", "Retry", "Seq", "Future", "where", "Bar")
    )

  test("the check reports a name the code lacks, and a dotted path split across files"):
    val files = Seq(Set("Foo", "bar"), Set("Baz", "qux"))
    val doc = Seq("0099-x.md" -> "`Foo.bar` `Baz` `Foo.qux` `NoSuchName` `Thread.onSpinWait`")
    assertEquals(
      unknown(doc, files),
      Seq("0099-x.md: `Foo.qux`", "0099-x.md: `NoSuchName`", "0099-x.md: `Thread.onSpinWait`")
    )
    // A JDK name passes only through the list, and only if the JDK has it.
    assert(AdrNames.inJdk("java.lang.Thread#onSpinWait"))
    assert(!AdrNames.inJdk("java.lang.Thread#noSuchMethod"))
    assert(!AdrNames.inJdk("java.lang.NoSuchClass"))

  test("the check accepts a removed name only where its removing ADR is cited"):
    val doc = Seq("0099-x.md" -> "`PlatformWait` (ADR 0016)", "0098-y.md" -> "`PlatformWait`")
    assertEquals(unknown(doc, Seq(Set("Foo"))), Nil)
    assertEquals(
      uncited(doc, Seq(Set("Foo"))),
      Seq("0098-y.md names `PlatformWait`, removed by ADR 0016, without citing it")
    )

  test("the index check reports a missing, an extra, a doubled and a misnumbered row"):
    val readme = Seq(
      "| 0000 | [A](0000-a.md) | ... |",
      "| 0001 | [B](0002-b.md) | ... |",
      "| 0003 | [C](0003-c.md) | ... |",
      "| 0003 | [C](0003-c.md) | ... |"
    ).mkString("\n")
    val found = indexProblems(readme, Seq("0000-a.md", "0001-b.md", "0003-c.md"))
    assertEquals(
      found.toSet,
      Set(
        "0001-b.md is not in the index",
        "the index lists 0002-b.md, which is not there",
        "the index lists 0003-c.md twice",
        "row 0001 links to 0002-b.md"
      )
    )
