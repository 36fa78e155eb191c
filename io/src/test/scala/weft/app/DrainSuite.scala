package weft.app

import java.io.{BufferedReader, IOException, InputStreamReader, PrintWriter}
import java.net.Socket
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{CountDownLatch, TimeUnit}
import scala.concurrent.duration.*
import weft.testing.ChildJvm

/**
 * A TCP server under 200 concurrent connections of load receives a real SIGTERM in a child
 * JVM ([[DrainingServer]]): when the drain fits in its deadline, every request the server read
 * is answered; when it does not, the requests cut off are counted and reported, and the count
 * is what the clients saw unanswered. Exit code 143 either way. Every wait is bounded; nothing
 * assumes how fast the child is, except that closing its server socket ends its accept loop
 * well within the short drain deadline.
 */
class DrainSuite extends munit.FunSuite, weft.testing.Deadlined:
  override def testDeadlineSeconds: Int = 150

  /** How a client's connection ended. */
  enum End:
    case Closing // its last request was answered with `closing`, then the server closed
    case CutOff // its last request got no answer: the connection closed under it
    case Failed(e: Throwable)

  /**
   * A client: sends `kind <n>` requests one after another, each once the previous one is
   * answered, until the server closes; counts down `answered` at its first answer.
   */
  final class Client(port: Int, kind: String, answered: CountDownLatch):
    @volatile var end: End | Null = null
    @volatile var answers = 0
    val thread: Thread = Thread.ofVirtual().start: () =>
      end =
        try
          val s = Socket("127.0.0.1", port)
          try
            val in = BufferedReader(InputStreamReader(s.getInputStream, UTF_8))
            val out = PrintWriter(s.getOutputStream, false, UTF_8)
            var result: End | Null = null
            var n = 0
            while result == null do
              out.print(s"$kind $n\r\n")
              out.flush()
              in.readLine() match
                case null => result = End.CutOff
                case line =>
                  if line != s"ok $n" && line != s"ok $n closing" then
                    throw AssertionError(s"answer '$line' to request $n")
                  answers += 1
                  if answers == 1 then answered.countDown()
                  if line.endsWith("closing") then result = End.Closing
              n += 1
            result.nn
          finally s.close()
        catch case e: Throwable => End.Failed(e)
      answered.countDown() // never leave the test waiting on a client that failed early

  /** Runs the server, 200 clients (`kind(i)`), SIGTERM once each has an answer; the ends. */
  def underLoad(drainMs: Long, workMs: Long, kind: Int => String): (Seq[End], String) =
    val p = ChildJvm.start("weft.app.DrainingServer", drainMs.toString, workMs.toString)
    try
      val out = ChildJvm.output(p)
      val first = out.readLine()
      assert(
        first != null && first.startsWith("listening "),
        s"the server did not start: $first ${String(p.getErrorStream.readAllBytes())}"
      )
      val port = first.drop(10).toInt
      val answered = CountDownLatch(200)
      val clients = (0 until 200).map(i => Client(port, kind(i), answered))
      assert(answered.await(60, TimeUnit.SECONDS), "200 clients did not get an answer in 60 s")
      ChildJvm.signal(p, "TERM")
      assertEquals(ChildJvm.exitCode(p), 143)
      for c <- clients do assert(c.thread.join(java.time.Duration.ofSeconds(60)), "a client hangs")
      (clients.map(_.end.nn), String(p.getErrorStream.readAllBytes()))
    finally p.destroyForcibly(): Unit

  test("SIGTERM under load, drain within its deadline: every request read is answered"):
    val (ends, err) = underLoad(drainMs = 60_000, workMs = 20, kind = _ => "fast")
    assertEquals(ends.filter(_ != End.Closing), Nil, err)
    assert(!err.contains("drain deadline"), err)

  test("SIGTERM under load, drain deadline too short: the requests cut off are reported"):
    // half the clients send requests that never finish once the shutdown is requested
    val (ends, err) =
      underLoad(drainMs = 2_000, workMs = 5, kind = i => if i % 2 == 0 then "fast" else "slow")
    assertEquals(ends.collect { case f: End.Failed => f }, Nil)
    // every slow client's second request waits for the shutdown and is cut off; every fast
    // one is answered
    val cutOff = ends.zipWithIndex.collect { case (End.CutOff, i) => i }
    assertEquals(cutOff, (1 until 200 by 2).toVector, s"cut off: $cutOff")
    val reported =
      """weft: drain deadline of 2 s passed; cancelling (\d+) futures still running""".r
        .findFirstMatchIn(err).map(_.group(1).toInt)
    assertEquals(reported, Some(cutOff.size), err)
