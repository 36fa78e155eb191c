package weft.guide

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files
import scala.concurrent.duration.*
import weft.*
import weft.io.File
import weft.memcached.*

/** The pipeline of docs/guide/flow.md, run against a real memcached. */
class FlowPipelineGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def beforeAll(): Unit = MemcachedServer.assumeAvailable()

  // example: flow-pipeline
  final case class Order(id: Int, customer: String, amount: BigDecimal)

  /** Orders (`id,customer,amount` lines) in, orders with the customer's name out; the bytes. */
  def enrich(in: String, out: String, client: MemcachedClient)(using Async): Long =
    val batches = File.lines(in) // opened by the run, closed however it ends
      .drop(1) // the header
      .map: line =>
        val f = line.split(',')
        Order(f(0).toInt, f(1), BigDecimal(f(2)))
      .mapPar(8): order => // 8 lookups in flight, results in the order of the lines
        val name = client.fetch[String](s"customer:${order.customer}").getOrElse("unknown")
        s"${order.id},$name,${order.amount}"
      .groupedWithin(100, 50.millis) // 100 lines, or fewer if 50 ms pass first
      .map(batch => ByteBuffer.wrap(batch.mkString("", "\n", "\n").getBytes(UTF_8)))
    File.writeChunks(out, batches) // one write per batch
  // end

  test("flow: the lines of a file, parsed, enriched by memcached, batched, written out"):
    val dir = Files.createTempDirectory("weft-flow-pipeline")
    try
      val in = dir.resolve("orders.csv")
      val out = dir.resolve("enriched.csv")
      val orders = (1 to 1000).map(i => s"$i,c${i % 7},${i}.50")
      Files.writeString(in, ("id,customer,amount" +: orders).mkString("\n"))
      MemcachedServer.withServer(): server =>
        Async.blocking:
          MemcachedClient.resource(MemcachedConfig(server.address)).use: client =>
            for c <- 0 until 6 do client.put(s"customer:c$c", s"Customer $c") // c6 is unknown
            val bytes = enrich(in.toString, out.toString, client)
            assertEquals(bytes, Files.size(out))
      val expected = (1 to 1000).map: i =>
        val name = if i % 7 == 6 then "unknown" else s"Customer ${i % 7}"
        s"$i,$name,${i}.50"
      assertEquals(Files.readAllLines(out).toArray.toList, expected.toList)
    finally
      Files.list(dir).forEach(Files.delete(_))
      Files.delete(dir)
