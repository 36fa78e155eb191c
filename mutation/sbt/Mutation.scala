import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit
import sbt._
import sbt.Keys._

/**
 * The `mutate` sbt command of the mutation check (see mutation/README.md). `mutation/run.sh`
 * copies it into the `project/` directory of a scratch copy of the repository, never into the
 * working tree, and runs it there in one sbt session:
 *
 * {{{
 * mutate <mutants file> <timeout seconds> <results file> [id ...]
 * }}}
 *
 * For each selected mutant: replace its `find` text (which must occur exactly once in its file)
 * by its `replace` text, compile, run its suites one by one with `testOnly` until one fails,
 * under the timeout (at the
 * timeout the forked test JVMs, children of this sbt process, are killed: a hang counts as
 * caught, and is reported as such), put the original file back, and append one line to the
 * results file: `<id> KILLED|SURVIVED|TIMEOUT|NOCOMPILE|EQUIVALENT <what>`.
 */
object Mutation {

  /** One mutant: `suites` are `project:suite` pairs. */
  final case class Mutant(
      id: String,
      what: String,
      file: String,
      find: String,
      replace: String,
      suites: Seq[(String, String)],
      equivalent: Option[String]
  )

  /**
   * Parses the mutants file: records of `key: value` lines separated by blank lines; `#` starts a
   * comment line; in `find` and `replace`, `\n` stands for a line break.
   */
  def parse(text: String): Seq[Mutant] = {
    val records = text.split("\n\\s*\n").toSeq.map { block =>
      block.split("\n").toSeq.filterNot(l => l.trim.isEmpty || l.startsWith("#"))
    }.filter(_.nonEmpty)
    records.map { lines =>
      val fields = lines.map { l =>
        val i = l.indexOf(": ")
        if (i < 0) sys.error(s"mutants file: not a 'key: value' line: $l")
        l.substring(0, i) -> l.substring(i + 2)
      }.toMap
      def field(k: String) =
        fields.getOrElse(k, sys.error(s"mutants file: a record has no '$k': ${lines.head}"))
      val suites = field("suites").trim.split("\\s+").toSeq.map { s =>
        s.split(":") match {
          case Array(p, n) => p -> n
          case _ => sys.error(s"mutants file: suite '$s' is not project:suite")
        }
      }
      def unescape(v: String) = v.replace("\\n", "\n")
      Mutant(field("id"), field("what"), field("file"), unescape(field("find")),
        unescape(field("replace")), suites, fields.get("equivalent"))
    }
  }

  private def occurrences(text: String, find: String): Int = {
    var n = 0
    var i = if (find.isEmpty) -1 else text.indexOf(find)
    while (i >= 0) { n += 1; i = text.indexOf(find, i + 1) }
    n
  }

  val command: Command =
    Command.args("mutate", "<mutants file> <timeout seconds> <results file> [id ...]") {
      (state0, args) =>
        val base = Project.extract(state0).get(ThisBuild / baseDirectory).toPath
        val all = parse(new String(Files.readAllBytes(base.resolve(args(0))), UTF_8))
        val timeoutSeconds = args(1).toLong
        val results = base.resolve(args(2))
        val wanted = args.drop(3).toSet
        val unknown = wanted -- all.map(_.id)
        if (unknown.nonEmpty) sys.error(s"mutate: no mutant named ${unknown.mkString(", ")}")
        val ids = all.map(_.id)
        val dup = ids.diff(ids.distinct)
        if (dup.nonEmpty) sys.error(s"mutate: duplicate ids ${dup.mkString(", ")}")
        val selected = all.filter(m => wanted.isEmpty || wanted(m.id))
        // Fail loudly before running anything if a mutant does not apply exactly once.
        selected.foreach { m =>
          val text = new String(Files.readAllBytes(base.resolve(m.file)), UTF_8)
          val n = occurrences(text, m.find)
          if (n != 1)
            sys.error(s"mutate: ${m.id}: the original text occurs $n times in ${m.file}: ${m.find}")
        }
        Files.write(results, Array.emptyByteArray)
        var state = state0
        selected.foreach { m =>
          val outcome =
            if (m.equivalent.isDefined) "EQUIVALENT"
            else {
              val path = base.resolve(m.file)
              val original = Files.readAllBytes(path)
              val text = new String(original, UTF_8)
              val i = text.indexOf(m.find)
              val mutated = text.substring(0, i) + m.replace + text.substring(i + m.find.length)
              state.log.info(s"[mutation] running ${m.id}: ${m.what}")
              Files.write(path, mutated.getBytes(UTF_8))
              try {
                val (s1, o) = runOne(state, m, timeoutSeconds)
                state = s1
                o
              } finally Files.write(path, original)
            }
          val line = s"${m.id} $outcome ${m.what}"
          state.log.info(s"[mutation] => $line")
          Files.write(results, (line + "\n").getBytes(UTF_8), java.nio.file.StandardOpenOption.APPEND)
        }
        state
    }

  /** Compiles the mutant, then runs its suites under the timeout. */
  private def runOne(state0: State, m: Mutant, timeoutSeconds: Long): (State, String) = {
    var state = state0
    val projects = m.suites.map(_._1).distinct
    val compiled = projects.forall { p =>
      try {
        state = Project.extract(state).runTask(LocalProject(p) / Test / compile, state)._1
        true
      } catch { case _: Throwable => false }
    }
    if (!compiled) (state, "NOCOMPILE")
    else {
      @volatile var timedOut = false
      val watchdog = new Thread(() =>
        try {
          Thread.sleep(timeoutSeconds * 1000)
          timedOut = true
          // the forked test JVMs are this sbt's children: end them (a hang counts as caught)
          ProcessHandle.current().descendants().forEach(p => { p.destroyForcibly(); () })
        } catch { case _: InterruptedException => () }
      )
      watchdog.setDaemon(true)
      watchdog.start()
      // One suite at a time, in the record's order, until one fails: the sharp suites listed
      // first kill a mutant in seconds even when a later one would hang on it.
      val failed = m.suites.exists { case (p, suite) =>
        try {
          state = Project.extract(state)
            .runInputTask(LocalProject(p) / Test / testOnly, " " + suite, state)._1
          false
        } catch { case _: Throwable => true }
      }
      watchdog.interrupt()
      watchdog.join(TimeUnit.SECONDS.toMillis(5))
      (state, if (timedOut) "TIMEOUT" else if (failed) "KILLED" else "SURVIVED")
    }
  }
}
