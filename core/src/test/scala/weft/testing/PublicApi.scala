package weft.testing

import java.nio.file.{Files, Path, Paths}
import scala.collection.mutable
import scala.jdk.CollectionConverters.*
import scala.quoted.*
import scala.tasty.inspector.{Inspector, Tasty, TastyInspector}

/**
 * The public API of a compiled module, read from its TASTy files with Scala's own visibility
 * (`private[weft]` is public in bytecode, so reflection cannot tell it apart).
 *
 * One line per public definition: `package.Owner kind name`, sorted, overloads listed once.
 * Nested public types are walked; members of classes that are not public are not listed.
 * `PublicApiSuite` (in each library module) compares the listing with `docs/api/<module>.txt`
 * and the top-level names with the README's API section.
 */
object PublicApi:

  /** The classes directory that holds `cls` (the module's compiled main classes). */
  def classesDirOf(cls: Class[?]): Path =
    Paths.get(cls.getProtectionDomain.getCodeSource.getLocation.toURI)

  /** The public definitions of every TASTy file under `classesDir`, as sorted lines. */
  def listing(classesDir: Path): Seq[String] =
    val tastys = Files.walk(classesDir).iterator().asScala
      .filter(_.toString.endsWith(".tasty")).map(_.toString).toList
    require(tastys.nonEmpty, s"no TASTy files under $classesDir")
    val collector = Collector()
    val ok = TastyInspector.inspectTastyFiles(tastys)(collector)
    require(ok, s"the TASTy inspector failed on $classesDir")
    collector.lines.toSeq

  /** The top-level public names (`package.Name`) of a listing. */
  def topLevel(listing: Seq[String]): Seq[String] =
    listing.collect { case s"$owner top $name" => s"$owner.$name" }.distinct.sorted

  /**
   * Whether users can name `s` by Scala's rules: not private or protected (qualified or not), and
   * not made by the compiler.
   */
  def isPublic(using q: Quotes)(s: q.reflect.Symbol): Boolean =
    import q.reflect.*
    !s.flags.is(Flags.Private) && !s.flags.is(Flags.Protected) &&
    !s.flags.is(Flags.Synthetic) && !s.flags.is(Flags.Artifact) &&
    s.privateWithin.isEmpty && s.protectedWithin.isEmpty

  private class Collector extends Inspector:
    val lines = mutable.SortedSet[String]()

    def inspect(using Quotes)(tastys: List[Tasty[quotes.type]]): Unit =
      import quotes.reflect.*

      def isPublic(s: Symbol): Boolean = PublicApi.isPublic(s)

      def kind(s: Symbol): String =
        if s.isClassDef then
          if s.flags.is(Flags.Module) then "object"
          else if s.flags.is(Flags.Trait) then "trait"
          else "class"
        else if s.isTypeDef then "type"
        else if s.flags.is(Flags.ExtensionMethod) then "extension"
        else if s.isDefDef then (if s.name == "<init>" then "constructor" else "def")
        else if s.flags.is(Flags.Module) then "object-value"
        else if s.flags.is(Flags.Mutable) then "var"
        else "val"

      def plain(name: String): String = name.stripSuffix("$")

      // default-argument getters and other compiler-made names carry a `$` (an object's class
      // ends with one, which is not such a name)
      def listed(d: Symbol, in: Symbol): Boolean =
        isPublic(d) && !plain(d.name).contains("$") &&
          !(d.name == "<init>" && (in.flags.is(Flags.Trait) || in.flags.is(Flags.Module)))

      def members(owner: String, cls: Symbol): Unit =
        for d <- cls.declarations if listed(d, cls) do
          val k = kind(d)
          if k != "object-value" then
            if d.isClassDef then
              lines += s"$owner $k ${plain(d.name)}"
              members(s"$owner.${plain(d.name)}", d)
            else lines += s"$owner $k ${d.name}"

      def topLevel(pkg: String, s: Symbol): Unit =
        val name = plain(s.name)
        if s.isClassDef && name.endsWith("$package") then
          // the top-level definitions of a source file
          for d <- s.declarations if listed(d, s) && kind(d) != "object-value" do
            lines += s"$pkg top ${plain(d.name)}"
            lines += s"$pkg ${kind(d)} ${plain(d.name)}"
            // an object beside a top-level opaque type lives in the file's wrapper
            if d.isClassDef then members(s"$pkg.${plain(d.name)}", d)
        else if s.isClassDef && isPublic(s) then
          lines += s"$pkg top $name"
          lines += s"$pkg ${kind(s)} $name"
          members(s"$pkg.$name", s)

      def walk(tree: Tree, pkg: String): Unit = tree match
        case PackageClause(pid, stats) =>
          val name = pid.symbol.fullName
          stats.foreach(walk(_, name))
        case c: ClassDef => topLevel(pkg, c.symbol)
        case t: TypeDef  => if isPublic(t.symbol) then lines += s"$pkg top ${t.name}"
        case _           => ()

      for t <- tastys do walk(t.ast, "")
