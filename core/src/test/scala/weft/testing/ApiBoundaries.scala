package weft.testing

import java.nio.file.{Files, Path}
import scala.collection.mutable
import scala.jdk.CollectionConverters.*
import scala.quoted.*
import scala.tasty.inspector.{Inspector, Tasty, TastyInspector}

/**
 * The boundaries between weft's public API, its internal API and core's own internals, read from
 * a module's TASTy files (Scala's own visibility: `private[weft]` is public in bytecode):
 *   - '''leaks''': a public definition outside `weft.internal` whose signature names a
 *     type of `weft.internal` (as a parameter, result or parent type) or a type users cannot
 *     name (as a parameter or result type);
 *   - '''unmarked''': a public definition under `weft.internal` without `@InternalApi` (what
 *     is public there is the internal API, and says so);
 *   - '''private uses''': a reference, from a module other than core, to a definition of core
 *     that is `private[weft]` or `protected[weft]` (it must use core's public or internal API).
 * `PublicApiChecks` runs them for every library module.
 */
object ApiBoundaries:

  /** What [[inspect]] found; each entry names the definition and the offending symbol. */
  final case class Findings(leaks: Seq[String], unmarked: Seq[String], privateUses: Seq[String])

  /**
   * Inspects the TASTy files under `classesDir`, the compiled main classes of the module whose
   * own packages start with `ownPackage` (`weft` for core, `weft.io` for io...).
   */
  def inspect(classesDir: Path, ownPackage: String): Findings =
    val tastys = Files.walk(classesDir).iterator().asScala
      .filter(_.toString.endsWith(".tasty")).map(_.toString).toList
    require(tastys.nonEmpty, s"no TASTy files under $classesDir")
    val collector = Collector(ownPackage)
    val ok = TastyInspector.inspectTastyFiles(tastys)(collector)
    require(ok, s"the TASTy inspector failed on $classesDir")
    Findings(
      collector.leaks.toSeq.sorted,
      collector.unmarked.toSeq.sorted,
      collector.privateUses.toSeq.sorted
    )

  private class Collector(ownPackage: String) extends Inspector:
    val leaks = mutable.Set[String]()
    val unmarked = mutable.Set[String]()
    val privateUses = mutable.Set[String]()

    def inspect(using Quotes)(tastys: List[Tasty[quotes.type]]): Unit =
      import quotes.reflect.*

      def isPublic(s: Symbol): Boolean = PublicApi.isPublic(s)

      // Qualified visibility: private[weft], protected[weft] (and narrower qualifiers).
      def isQualified(s: Symbol): Boolean =
        s.privateWithin.isDefined || s.protectedWithin.isDefined

      def packageOf(s: Symbol): String =
        var o = s
        while !o.isNoSymbol && !o.isPackageDef do o = o.owner
        if o.isNoSymbol then "" else o.fullName

      def inInternal(s: Symbol): Boolean = packageOf(s).split('.').contains("internal")

      def visibleToUsers(s: Symbol): Boolean =
        var o = s
        var ok = true
        while ok && !o.isNoSymbol && !o.isPackageDef do
          ok = !o.flags.is(Flags.Private) && o.privateWithin.isEmpty
          o = o.owner
        ok

      def isCore(s: Symbol): Boolean =
        val p = packageOf(s)
        (p == "weft" || p.startsWith("weft.")) &&
        !Seq(
          "weft.io",
          "weft.memcached",
          "weft.slf4j",
          "weft.testkit",
          "weft.testing",
          "weft.bench"
        ).exists(m =>
          p == m || p.startsWith(m + ".")
        )

      def marked(s: Symbol): Boolean =
        var o = s
        var found = false
        while !found && !o.isNoSymbol && !o.isPackageDef do
          found = o.annotations.exists(_.tpe.typeSymbol.name == "InternalApi")
          o = o.owner
        found

      // Type symbols named by a type, through applications, unions, functions...
      def typeSymbols(t: TypeRepr): List[Symbol] = t match
        case AppliedType(tc, args) => typeSymbols(tc) ++ args.flatMap(typeSymbols)
        case OrType(a, b)          => typeSymbols(a) ++ typeSymbols(b)
        case AndType(a, b)         => typeSymbols(a) ++ typeSymbols(b)
        case ByNameType(u)         => typeSymbols(u)
        case AnnotatedType(u, _)   => typeSymbols(u)
        case Refinement(p, _, i)   => typeSymbols(p) ++ typeSymbols(i)
        case TypeBounds(lo, hi)    => typeSymbols(lo) ++ typeSymbols(hi)
        case MethodType(_, ps, r)  => ps.flatMap(typeSymbols) ++ typeSymbols(r)
        case PolyType(_, _, r)     => typeSymbols(r)
        case tr: TypeRef           => List(tr.typeSymbol)
        case _                     => Nil

      // A parent that users cannot name (a module's private mixin) is allowed; one under
      // `weft.internal` is not: its members would become part of the public type.
      def checkSignature(d: Symbol, what: String): Unit =
        val isParent = d.isClassDef
        val types = d.tree match
          case c: ClassDef =>
            c.parents.collect { case t: TypeTree => t.tpe; case t: Term => t.tpe }
          case m: DefDef =>
            m.termParamss.flatMap(_.params.map(_.tpt.tpe)) :+ m.returnTpt.tpe
          case v: ValDef => List(v.tpt.tpe)
          case t: TypeDef =>
            t.rhs match
              case r: TypeTree => List(r.tpe)
              case _           => Nil
          case _ => Nil
        for s <- types.flatMap(typeSymbols).distinct do
          val user = s.isClassDef || s.isTypeDef
          if user && packageOf(s).startsWith("weft") && !s.isTypeParam &&
            (inInternal(s) || (!isParent && !visibleToUsers(s)))
          then leaks += s"$what names ${s.fullName}"

      def publicDefinitions(cls: Symbol, owner: String): Unit =
        for d <- cls.declarations if isPublic(d) && !d.name.contains("$") do
          val what = s"$owner.${d.name}"
          checkSignature(d, what)
          if d.isClassDef then publicDefinitions(d, what)

      def topLevel(pkg: String, s: Symbol): Unit =
        if isPublic(s) then
          val what = s"$pkg.${s.name.stripSuffix("$")}"
          if pkg.split('.').contains("internal") then
            if !marked(s) && !s.name.endsWith("$package") && s.name != "InternalApi" then
              unmarked += what
            if s.name.endsWith("$package") then
              for d <- s.declarations if isPublic(d) && !d.name.contains("$") do
                if !marked(d) then unmarked += s"$pkg.${d.name}"
          else
            if !s.name.endsWith("$package") then checkSignature(s, what)
            publicDefinitions(s, what)

      // References from a module other than core to core's qualified-private definitions.
      def uses(tree: Tree, from: String): Unit =
        val traverser = new TreeTraverser:
          override def traverseTree(t: Tree)(owner: Symbol): Unit =
            t match
              case r: Ref =>
                val s = r.symbol
                if !s.isNoSymbol && isCore(s) && isQualified(s) then
                  privateUses += s"$from uses ${s.fullName}"
              case d: DefDef =>
                for o <- d.symbol.allOverriddenSymbols if isCore(o) && isQualified(o) do
                  privateUses += s"$from overrides ${o.fullName}"
              case _ => ()
            super.traverseTree(t)(owner)
        traverser.traverseTree(tree)(tree.symbol)

      def walk(tree: Tree, pkg: String): Unit = tree match
        case PackageClause(pid, stats) =>
          val name = pid.symbol.fullName
          stats.foreach(walk(_, name))
        case c: ClassDef =>
          if ownPackage == "weft" then topLevel(pkg, c.symbol)
          else
            if !pkg.split('.').contains("internal") then topLevel(pkg, c.symbol)
            uses(c, s"$pkg.${c.name.stripSuffix("$")}")
        case _ => ()

      for t <- tastys do walk(t.ast, "")
