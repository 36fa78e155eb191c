package weft.memcached

import java.net.{InetSocketAddress, StandardSocketOptions, UnknownHostException}
import java.nio.ByteBuffer
import java.nio.channels.SocketChannel
import java.util.concurrent.{ConcurrentLinkedQueue, LinkedBlockingQueue, Semaphore}
import java.util.concurrent.atomic.AtomicReference
import scala.concurrent.duration.FiniteDuration
import scala.util.Failure
import weft.{Async, Future, Promise}
import weft.runtime.Fiber

/**
 * One pipelined connection to a server: many callers, one writer fiber, one reader fiber.
 *
 * ==Algorithm==
 * [[submit]] counts the request against the node's queue bound (failing fast with
 * [[Overloaded]] past it) and puts it in the request queue. The writer fiber takes requests
 * from the queue, skips those whose caller already gave up, takes a slot of the in-flight
 * window, gives the request its opaque numbers, encodes it into one buffer and appends it to
 * the in-flight queue, all in one step, then writes the buffer when the queue is empty (so a
 * burst of requests is one write). When the window is full it first writes what it has, then
 * waits for the reader to free a slot.
 *
 * Both fibers call the socket directly, in blocking mode: on a virtual thread a blocking read
 * or write parks the fiber, not a carrier, so the reader is one thread parked in `read` for the
 * life of the connection and the writer writes a batch in place, with no thread started and no
 * hand-off per read or write (the `memcached-setget` workload re-checks it).
 *
 * The reader fiber reads whatever bytes arrive, feeds the [[ReplyParser]] and hands each reply
 * to the head of the in-flight queue, which checks that the reply is its own (opaque, key,
 * kind). Since replies come in request order, the head is the only candidate; anything else
 * means the stream can no longer be trusted: [[ProtocolDesync]] closes the connection. The
 * writer also numbers the requests it puts in flight, and the reader hands the k-th complete
 * reply only to request number k, which keeps replies read before a close from reaching a
 * request appended after it, in classic mode too (no opaque there).
 *
 * ==Callers that give up==
 * A caller whose deadline passes, or who is cancelled, completes its request itself
 * and leaves. The request stays where it is: unwritten (queued, or held by the writer while it
 * waits for a window slot), the writer drops it; written, its
 * reply is still read and handed to it, completes nothing, and is counted as a late reply. So
 * a reply can only ever reach the request it answers (`MixUpSuite` runs this 10,000 times).
 *
 * ==Closing==
 * [[close]] (on an IO error, end of stream, desync, liveness failure, or client close) closes
 * the socket, fails every queued and in-flight request with the reason, and stops both fibers.
 * Each request is taken out of a queue exactly once, by whoever removes it, who also adjusts
 * the counters, so the counts never drift.
 */
final private[memcached] class Connection private (
    socket: SocketChannel,
    config: MemcachedConfig,
    counters: NodeCounters,
    clock: weft.runtime.Clock
):
  private val wire = Wire(config.protocol)
  // JDK structures, not weft's channel and semaphore, on purpose: the deadline sweep walks the
  // queue from its head (a channel cannot be walked); taking from it allocates nothing per
  // request (a channel's read hands out a `Try`); the window is taken by the writer alone and
  // given back by the reader and by closers, which are not always in an `Async` (weft's
  // `Semaphore` releases through the guard its acquirer holds). The cost is that the writer's
  // waits are outside weft, which it declares (`Fiber.waitingOutside`) for the test kit.
  private val queue = LinkedBlockingQueue[Request[?]]()
  private val inFlight = ConcurrentLinkedQueue[Request[?]]()
  private val window = Semaphore(config.maxInFlight)
  // the reason the connection closed; set once, and its being set is what "closed" means, so
  // whoever sees the connection closed also sees why
  private val reason = AtomicReference[MemcachedException | Null](null)
  private val closedPromise = Promise[MemcachedException]()
  @volatile private var lastRead: Long = clock.nanoTime()
  @volatile private var replies: Long = 0L
  @volatile private var writer: Future[Unit] | Null = null
  @volatile private var reader: Future[Unit] | Null = null
  @volatile private var sweeper: Future[Unit] | Null = null
  // the request the writer holds while it waits for a window slot, for the sweep to see
  @volatile private var holding: Request[?] | Null = null
  private val sweepTick: Long = math.max(1_000_000L, config.deadline.toNanos / 16)
  // the number (`Request.seq`) of the request the next complete reply answers; the reader's own
  private var nextReply: Long = 1L

  /** Completed with the reason when the connection closes. */
  def closed: Future[MemcachedException] = closedPromise.future

  /** Whether the connection is closed or closing. */
  def isClosed: Boolean = reason.get != null

  /** How many replies were read (to tell a connection that worked from one that never did). */
  def repliesRead: Long = replies

  /**
   * Queues `req`.
   * @throws Overloaded
   *   if the node's queue is full
   * @throws ConnectionLost
   *   if the connection is closed
   */
  def submit(req: Request[?]): Unit =
    val r = reason.get
    if r != null then throw ConnectionLost(s"${counters.node}: connection closed (${r.getMessage})")
    // a CAS loop, not increment-then-undo: the count never shows more than the bound
    var q = counters.queued.get
    while
      if q >= config.maxQueued then
        throw Overloaded(s"${counters.node}: ${config.maxQueued} requests already queued")
      !counters.queued.compareAndSet(q, q + 1)
    do q = counters.queued.get
    queue.add(req)
    if isClosed then drain()

  /**
   * How long the oldest in-flight request has waited with no byte arriving, in nanoseconds (0
   * when nothing is in flight): the liveness measure.
   */
  def stalledNanos(now: Long): Long =
    val head = inFlight.peek()
    if head == null then 0L
    else
      val since = math.max(head.writtenAt, lastRead)
      if head.writtenAt == 0L then 0L else math.max(0L, now - since)

  /** Closes the connection (idempotent): fails every pending request with `why`. */
  def close(why: MemcachedException): Unit =
    val _ = tryClose(why)

  /**
   * [[close]], returning whether this call closed it (`false`: it was closed already). A
   * `desync` that closes it is counted before any call fails, so a caller that sees its
   * [[ProtocolDesync]] sees the count too.
   */
  private def tryClose(why: MemcachedException, desync: Boolean = false): Boolean =
    val closing = reason.compareAndSet(null, why)
    if closing then
      if desync then counters.desyncs.incrementAndGet()
      // closing the channel ends a read or write blocked on it (AsynchronousCloseException)
      try socket.close()
      catch case _: java.io.IOException => ()
      val w = writer
      if w != null then w.cancel()
      val s = sweeper
      if s != null then s.cancel()
      drain()
      closedPromise.tryComplete(scala.util.Success(why))
    closing

  /**
   * After [[close]]: waits until the reader has ended (its read failed on the closed socket)
   * and the writer was stopped (cancelled: its thread ends at its next step). Both fibers
   * belong to the supervisor's scope, whose end joins their threads.
   */
  def join()(using Async): Unit =
    val w = writer
    val r = reader
    val s = sweeper
    if w != null then w.result
    if r != null then r.result
    if s != null then s.result

  private def drain(): Unit =
    val why = reason.get.nn
    var r = queue.poll()
    while r != null do
      counters.queued.decrementAndGet()
      r.complete(Failure(why))
      r = queue.poll()
    r = inFlight.poll()
    while r != null do
      counters.inFlight.decrementAndGet()
      window.release()
      r.complete(Failure(why))
      r = inFlight.poll()

  private def start()(using Async): Unit =
    writer = Future(writeLoop())
    reader = Future(readLoop())
    sweeper = Future(sweepLoop())

  /**
   * Fails with [[Timeout]] every request whose swept deadline (the client's default: see
   * [[Request.sweptDue]]) has passed by `now`: see [[DeadlineSweep]].
   */
  def expireDue(now: Long): Unit =
    DeadlineSweep.run(inFlight, holding, queue, now, sweepTick, counters, config.deadline)

  /** Sweeps every tick (a fraction of the default deadline) until the connection closes. */
  private def sweepLoop()(using Async): Unit =
    val tick = FiniteDuration(sweepTick, "ns")
    try
      while !isClosed do
        weft.sleep(tick)
        expireDue(Clocks.now())
    catch case _: java.util.concurrent.CancellationException => ()

  private def writeLoop()(using Async): Unit =
    val out = ByteSink(64 * 1024)
    var nextOpaque = 1
    var nextSeq = 1L
    // the request taken from the queue and not yet in flight: failed here if the loop ends
    // while holding it (ResourceSuite's regression test: close while the window is full)
    var held: Request[?] | Null = null
    def flush(): Unit =
      if out.size > 0 then
        val b = ByteBuffer.wrap(out.array, 0, out.size)
        while b.hasRemaining do socket.write(b)
        out.reset()
    try
      while !isClosed do
        // The writer waits for callers in a JDK queue (and for a slot in a JDK semaphore): for a
        // test kit's virtual time these are waits outside weft, which hold the clock unless the
        // kit counts outside waits as waiting (VirtualTimeConfig.outsideWaitsHoldTime = false,
        // for tests of a silent server: MemcachedVirtualTimeSuite).
        held = Fiber.waitingOutside(queue.take())
        while held != null do
          val req = held.nn
          counters.queued.decrementAndGet()
          if !req.isDone then
            if !window.tryAcquire() then
              flush()
              holding = req
              Fiber.waitingOutside(window.acquire())
              holding = null
            // the caller may have given up while the writer waited for a slot: such a request
            // is never written either (GiveUpSuite's regression test)
            if req.isDone then window.release()
            else
              req.opaque = nextOpaque
              nextOpaque += req.opaques
              req.seq = nextSeq
              nextSeq += 1
              wire.encode(req, out)
              req.writtenAt = clock.nanoTime()
              counters.inFlight.incrementAndGet()
              inFlight.add(req)
              if isClosed then drain()
          held = null
          if out.size >= 64 * 1024 then flush()
          held = queue.poll()
          if held == null && out.size > 0 then
            // let callers that are ready to run add their requests to this write: with the
            // write done in place, writing at once sent one small write per request, and the
            // server's CPU per op rose with the number of reads it made (`memcached-setget`);
            // with nothing else runnable the yield returns at once
            weft.runtime.Fiber.yieldNow()
            held = queue.poll()
        flush()
    catch
      case _: InterruptedException | _: java.util.concurrent.CancellationException => ()
      case e: Throwable =>
        close(ConnectionLost(s"${counters.node}: write failed: ${e.getMessage}", e))
    finally
      val h = held
      if h != null then
        val why = reason.get
        h.complete(
          Failure(if why != null then why else ConnectionLost(s"${counters.node}: writer stopped"))
        )

  private def readLoop()(using Async): Unit =
    val parser = ReplyParser(config.maxLineLength, config.maxReplyValueSize)
    try
      while !isClosed do
        // a silent server: see VirtualTimeConfig
        val n = Fiber.waitingOutside(parser.readFrom(socket))
        if n < 0 then close(ConnectionLost(s"${counters.node}: the server closed the connection"))
        else
          lastRead = clock.nanoTime()
          var reply = parser.next()
          while reply != null && dispatch(reply) do reply = parser.next()
    catch
      case d: ProtocolDesync =>
        // counted only if the desync is what closed the connection: replies read before
        // someone else closed it are not a desync (FakeServerSuite's regression test)
        val _ = tryClose(ProtocolDesync(s"${counters.node}: ${d.getMessage}"), desync = true)
      case _: java.util.concurrent.CancellationException => ()
      case e: Throwable =>
        close(ConnectionLost(s"${counters.node}: read failed: ${e.getMessage}", e))

  /**
   * Hands `reply` to the oldest in-flight request; removes it when complete. Returns `false`,
   * handing it to no one, once the connection is closed and the reply is not the head's.
   *
   * A close drains the in-flight queue while replies read before it are still being handed
   * out, and the writer may append a request between a close and its own drain. The request
   * numbers make this exact in both protocols (classic replies carry no opaque): the k-th
   * complete reply answers the k-th request written, so a head whose number is not the next
   * reply's came after a drain and must not take it.
   */
  private def dispatch(reply: Reply): Boolean =
    val head = inFlight.peek()
    if head == null || head.seq != nextReply then
      if isClosed then return false
      if head == null then throw ProtocolDesync(s"reply \"$reply\" with no request in flight")
      throw ProtocolDesync(s"reply number $nextReply reached request number ${head.seq}")
    val abandoned = head.isDone
    if wire.accept(head, reply) then
      nextReply += 1
      replies += 1
      if abandoned then counters.lateReplies.incrementAndGet()
      val removed = inFlight.poll()
      if removed != null then
        counters.inFlight.decrementAndGet()
        window.release()
        // a concurrent close drained the head already: whatever we removed instead is failed
        if removed ne head then removed.complete(Failure(reason.get.nn))
    true

/** Opening connections. */
private[memcached] object Connection:

  /**
   * Connects to `address` and starts the connection's fibers in the caller's scope.
   * @throws java.io.IOException
   *   if the connection cannot be made
   */
  def open(host: String, port: Int, config: MemcachedConfig, counters: NodeCounters)(using
      Async
  ): Connection =
    val address = InetSocketAddress(host, port)
    if address.isUnresolved then throw UnknownHostException(s"$host:$port: unknown host")
    val ch = SocketChannel.open()
    try
      ch.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.TRUE)
      val millis = math.max(1L, config.connectTimeout.toMillis).min(Int.MaxValue).toInt
      // blocking, on the supervisor's fiber: cancelling it interrupts the connect, which
      // closes the channel
      ch.socket().connect(address, millis)
    catch
      case e: Throwable =>
        ch.close()
        throw e
    val c = Connection(ch, config, counters, summon[Async].support.clock)
    c.start()
    c
