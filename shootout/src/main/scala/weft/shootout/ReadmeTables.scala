package weft.shootout

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

/**
 * The shootout README's tables, rendered from the registry so they cannot drift from it: the
 * workloads with their contenders, every contender with its library, and what quick mode leaves
 * out and why. In the README each
 * table sits between a `<!-- generated: name -->` line and `<!-- end generated -->`;
 * `ReadmeSuite` fails when the README's text differs from the rendering, and
 * `./sbtw "shootout/runMain weft.shootout.ReadmeTables shootout/README.md"` rewrites it.
 */
object ReadmeTables:

  /** The generated tables by name, in README order. */
  def tables(workloads: Seq[Workload] = Workloads.all): Seq[(String, String)] =
    Seq(
      "workloads" -> workloadTable(workloads),
      "contenders" -> contenderTable(workloads),
      "quick" -> quickTable(workloads)
    )

  /** The line opening the generated table `name`. */
  def begin(name: String): String = s"<!-- generated: $name -->"

  /** The line closing a generated table. */
  val End: String = "<!-- end generated -->"

  /** One row per workload: what it measures, where from, its unit, threads and contenders. */
  def workloadTable(workloads: Seq[Workload]): String =
    val head = Seq(
      "| id | what | from | unit | threads | contenders |",
      "|---|---|---|---|---|---|"
    )
    (head ++ workloads.map { w =>
      val threads = w.threads.mkString(", ") +
        (if w.fullOnlyThreads.isEmpty then ""
         else s" (${w.fullOnlyThreads.mkString(", ")} in `--full`)")
      val contenders = w.contenders.map { c =>
        val marks = (if w.shownOnly(c) then Seq("shown") else Nil) ++
          (if w.notInQuickContenders(c) then Seq("full") else Nil)
        s"`${c.id}`" + (if marks.isEmpty then "" else marks.mkString(" (", ", ", ")"))
      }
      s"| `${w.id}` | ${cell(w.title)} | ${cell(w.seed)} | ${w.unit} | $threads | " +
        s"${contenders.mkString(", ")} |"
    }).mkString("\n")

  /** Every declared contender with its library and the workloads that measure it. */
  def contenderTable(workloads: Seq[Workload]): String =
    val head = Seq("| contender | library | workloads |", "|---|---|---|")
    (head ++ Contender.values.toSeq.map { c =>
      val (in, out) = workloads.partition(_.contenders.contains(c))
      def names(ws: Seq[Workload]) = ws.map(w => s"`${w.id}`").mkString(", ")
      // weft is in nearly every workload: name the exceptions instead
      val where =
        if in.isEmpty then "none (a diagnostic method of a bench class)"
        else if in.size > out.size * 3 then s"every workload but ${names(out)}"
        else names(in)
      s"| `${c.id}` | ${c.library.name} | $where |"
    }).mkString("\n")

  /** What quick mode leaves out, a workload or some of its rows, and the registry's reason. */
  def quickTable(workloads: Seq[Workload]): String =
    val head = Seq("| left out of quick mode | why |", "|---|---|")
    val rows = workloads.flatMap { w =>
      val what =
        if w.notInQuick then Some(s"`${w.id}`")
        else if w.notInQuickContenders.isEmpty then None
        else
          val names = w.contenders.filter(w.notInQuickContenders).map(c => s"`${c.id}`")
          Some(s"`${w.id}` ${if names.size == 1 then "row" else "rows"} ${names.mkString(", ")}")
      what.map(x => s"| $x | ${cell(w.quickWhy)} |")
    }
    (head ++ rows).mkString("\n")

  /** A table cell's text: a `|` would end the cell. */
  private def cell(s: String): String = s.replace("|", "\\|")

  /**
   * `text` with every generated table replaced by its rendering; a table whose markers are
   * missing is an error, so a README that lost one fails loudly.
   */
  def render(text: String, tables: Seq[(String, String)] = tables()): String =
    tables.foldLeft(text) { case (t, (name, table)) =>
      val start = t.indexOf(begin(name))
      require(start >= 0, s"no `${begin(name)}` line")
      val bodyStart = t.indexOf('\n', start) + 1
      val end = t.indexOf(End, bodyStart)
      require(end >= 0, s"no `$End` line after `${begin(name)}`")
      t.substring(0, bodyStart) + table + "\n" + t.substring(end)
    }

  /** Rewrites the README at `args(0)` with the registry's tables. */
  def main(args: Array[String]): Unit =
    val path = Path.of(args.headOption.getOrElse("shootout/README.md"))
    val text = Files.readString(path, StandardCharsets.UTF_8)
    Files.writeString(path, render(text), StandardCharsets.UTF_8)
