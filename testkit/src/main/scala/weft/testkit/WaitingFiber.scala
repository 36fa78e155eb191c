package weft.testkit

import weft.runtime.FiberDomain

/**
 * A fiber as a deadlock or blocked-fiber report shows it.
 *
 * @param name
 *   its name (`weft-test-main` for the scope's body, `weft-test-N` for the futures it started)
 * @param waitsOn
 *   what it waits on, in words: `a channel read`, `a channel send`, `a semaphore permit`,
 *   `a future (await)`, `a select`, `the futures of a scope ending`, or for a fiber blocked in the
 *   JDK the call it blocks in
 * @param blockedInJdk
 *   whether it blocks in a JDK call rather than a weft wait
 * @param stack
 *   its stack when the report was made
 */
final case class WaitingFiber(
    name: String,
    waitsOn: String,
    blockedInJdk: Boolean,
    stack: List[StackTraceElement]
)

private[testkit] object WaitingFiber:

  /** How many frames of each fiber's stack a report prints. */
  private val ReportFrames = 12

  /** A member as the report shows it. */
  def of(m: FiberDomain.MemberView): WaitingFiber =
    val full = m.stack.toList
    // A weft wait's stack starts with the park itself (the JDK's and weft.runtime's frames):
    // it is the same for every fiber, so the report starts at the wait that parked.
    val inJdk = m.blockedInJdk || m.waitingOutside
    val stack =
      if inJdk then full
      else
        full.dropWhile: e =>
          val c = e.getClassName
          c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("weft.runtime.")
    val what =
      if m.waitingOutside then s"the outside world, in ${jdkCall(stack)}"
      else if m.blockedInJdk then jdkCall(stack)
      else weftWait(stack)
    WaitingFiber(m.name, what, inJdk, stack)

  /** The message: a headline, then each fiber with what it waits on and its top frames. */
  def report(headline: String, fibers: List[WaitingFiber]): String =
    val b = StringBuilder(s"weft-testkit: $headline")
    for f <- fibers.sortBy(_.name) do
      b ++= s"\n  ${f.name} waits on ${f.waitsOn}"
      for e <- f.stack.take(ReportFrames) do b ++= s"\n      at $e"
      if f.stack.sizeIs > ReportFrames then b ++= "\n      ..."
    b.result()

  /** Patterns of frames (class name part, method) and what a wait in them is. */
  private val weftWaits: List[(String, String, String)] = List(
    ("CellChannel", "read", "a channel read"),
    ("CellChannel", "readCell", "a channel read"),
    ("CellChannel", "send", "a channel send"),
    ("CellChannel", "sendInCell", "a channel send"),
    ("Semaphore", "acquire", "a semaphore permit"),
    ("SemaphoreQueue", "", "a semaphore permit"),
    ("SelectWait", "", "a select"),
    ("CompletionGroup", "waitCompletion", "the futures of a scope ending"),
    ("CompletionGroup", "join", "the members of a group ending"),
    ("weft.sleep$package", "sleep", "a sleep"),
    ("weft.Async", "suspend", "a future (await)")
  )

  private def weftWait(stack: List[StackTraceElement]): String =
    val hit = stack.iterator
      .flatMap(e =>
        weftWaits.find((cls, method, _) =>
          e.getClassName.contains(cls) && (method.isEmpty || e.getMethodName == method)
        )
      )
      .nextOption()
    hit.fold("a weft wait")(_._3)

  /** The JDK call the fiber blocks in (the last JDK frame) and the code that called it. */
  private def jdkCall(stack: List[StackTraceElement]): String =
    def inJdk(e: StackTraceElement) =
      val c = e.getClassName
      c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.")
    val i = stack.indexWhere(e => !inJdk(e))
    if i <= 0 then "a JDK call"
    else
      val call = stack(i - 1)
      s"a JDK call (${call.getClassName}.${call.getMethodName}, called at ${stack(i)})"
