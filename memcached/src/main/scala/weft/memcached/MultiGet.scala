package weft.memcached

import java.util.concurrent.CancellationException
import scala.concurrent.duration.FiniteDuration
import scala.util.{Failure, Success}
import weft.Async

/**
 * A multi-key read: keys validated, grouped by node, cut into chunks of `multiGetChunk` keys,
 * every chunk submitted before any is awaited (each node's writer sends them while its reader
 * takes the replies, so a large read never waits on full socket buffers), then every chunk
 * awaited with the one deadline. A chunk that fails (its node down, overloaded, lost) fails
 * only its keys. `MultiGetSuite` reads 50,000 keys and 200 values of 100 KiB.
 */
private[memcached] object MultiGet:

  /** Runs the read for distinct `keys`. */
  def run(client: MemcachedClient, keys: IndexedSeq[String], deadline: FiniteDuration)(using
      Async
  ): MultiGetResult =
    val nanos = Validate.deadline(deadline)
    val binary = client.config.binaryKeys
    val encoded = keys.map(Validate.key(_, binary))
    val byNode = keys.indices.groupBy(i => client.nodeFor(keys(i)))
    val failures = Map.newBuilder[String, MemcachedException]
    val sent = Vector.newBuilder[(Node, MultiGetRequest)]
    for (node, idx) <- byNode; chunk <- idx.grouped(client.config.multiGetChunk) do
      val req = MultiGetRequest(chunk.map(keys), chunk.map(encoded), binary)
      try
        if client.isClosed then throw ClientClosed("the client is closed")
        node.submit(req)
        sent += node -> req
      catch case e: MemcachedException => req.keys.foreach(failures += _ -> e)
    val requests = sent.result()
    val handles = requests.map((n, r) => client.armDeadline(n, r, nanos, deadline))
    val hits = Map.newBuilder[String, Hit]
    try
      for (_, r) <- requests do
        try hits ++= client.awaitRequest(r)
        catch case e: MemcachedException => r.keys.foreach(failures += _ -> e)
    catch
      case c: CancellationException =>
        requests.foreach((_, r) => r.promise.tryComplete(Failure(c)))
        throw c
    finally handles.foreach(_.cancel())
    MultiGetResult(hits.result(), failures.result())
