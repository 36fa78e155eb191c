package weft.bench.channels

/** Helpers shared by the channel benchmarks: every contender runs on virtual threads. */
object ChannelBenchSupport:

  /** Values sent per benchmark invocation in the one-to-one workloads. */
  final val N = 20000

  /** Starts `body` on a new virtual thread. */
  def vt(body: => Unit): Thread = Thread.ofVirtual().start(() => body)

  /** Runs a sender and a receiver loop on two virtual threads and waits for both. */
  def pair(sender: => Unit)(receiver: => Unit): Unit =
    val s = vt(sender)
    val r = vt(receiver)
    s.join()
    r.join()
