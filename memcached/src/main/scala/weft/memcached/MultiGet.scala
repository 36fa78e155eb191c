package weft.memcached

import java.util.concurrent.CancellationException
import scala.collection.immutable.ArraySeq
import scala.concurrent.duration.FiniteDuration
import weft.Async
import weft.internal.runtime.DurationText

/**
 * A multi-key read: keys validated, grouped by node, cut into chunks of `multiGetChunk` keys,
 * every chunk sent (its deadline armed) before any is awaited (each node's writer sends them while its reader
 * takes the replies, so a large read never waits on full socket buffers), then every chunk
 * awaited with the one deadline. A chunk that fails (its node down, overloaded, lost) fails
 * only its keys. `MultiGetSuite` reads 50,000 keys and 200 values of 100 KiB.
 */
private[memcached] object MultiGet:

  /**
   * Runs the read for `keys` (repeats read once), due by `due` (`Clocks.now`, taken when
   * the call started: reading, validating and grouping the keys count against the deadline,
   * and a chunk out of time before it is sent is not sent, GiveUpSuite's regression test).
   * @throws ClientClosed
   *   if the client is closed (a close racing the call fails its chunks' keys instead)
   */
  def run(client: MemcachedClient, keys: Iterable[String], due: Long, deadline: FiniteDuration)(
      using Async
  ): MultiGetResult =
    Validate.notNull(keys, "keys")
    if client.isClosed then throw ClientClosed("the client is closed")
    val binary = client.config.binaryKeys
    // arrays: the requests index their keys once per reply
    val array = distinct(keys).toArray
    val ks = ArraySeq.unsafeWrapArray(array)
    val encoded = ArraySeq.unsafeWrapArray(array.map(Validate.key(_, binary)))
    val chunk = client.config.multiGetChunk
    val single = client.singleNode
    val byNode: Iterable[(Node, IndexedSeq[Int])] =
      if ks.isEmpty then Nil
      else if due - Clocks.now() <= 0 then Nil // out of time already: no key is hashed
      else if single != null then List(single -> ks.indices) // no key to hash
      else ks.indices.groupBy(i => client.nodeFor(ks(i)))
    var failures = Map.empty[String, MemcachedException]
    val sent = Vector.newBuilder[MultiGetRequest]
    for (node, idx) <- byNode; part <- chunks(idx, chunk) do
      val req =
        if part.length == ks.length then MultiGetRequest(ks, encoded, binary)
        else MultiGetRequest(part.map(ks), part.map(encoded), binary)
      sent += req.send(client, node, due, deadline)
    if byNode.isEmpty && ks.nonEmpty then
      val late =
        Timeout(
          s"multi-get of ${ks.length} keys not sent, its deadline (${DurationText(deadline)}) passed"
        )
      ks.foreach(k => failures += k -> late)
    val requests = sent.result()
    var hits = Map.empty[String, Hit]
    try
      Request.awaitEvery(requests)
      for r <- requests do
        try
          val h = r.awaitCall()
          // one chunk (the common case) is the whole result: no copy
          hits = if hits.isEmpty then h else hits ++ h
        catch case e: MemcachedException => r.keys.foreach(k => failures += k -> e)
    catch
      case c: CancellationException =>
        // the caller was cancelled: the chunks not awaited yet are abandoned too
        requests.foreach(_.cancel())
        throw c
    MultiGetResult(hits, failures)

  /** `keys` without repeats, in their order; copied only if some key repeats. */
  private def distinct(keys: Iterable[String]): IndexedSeq[String] =
    val seq = keys.toIndexedSeq
    val seen = java.util.HashSet[String](seq.length * 2)
    if seq.forall(seen.add) then seq else seq.distinct

  private def chunks(idx: IndexedSeq[Int], size: Int): Iterator[IndexedSeq[Int]] =
    if idx.length <= size then Iterator.single(idx) else idx.grouped(size)
