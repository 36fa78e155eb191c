package weft.guide

import java.nio.charset.StandardCharsets.UTF_8
import scala.concurrent.duration.*
import weft.*
import weft.keyed.SingleFlight
import weft.memcached.*

/** The examples of docs/guide/memcached.md, run against a real server. */
class MemcachedGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def beforeAll(): Unit = MemcachedServer.assumeAvailable()

  test("memcached: put and fetch"):
    // example: memcached-basic
    def greet(address: String): Option[String] =
      Async.blocking:
        MemcachedClient.resource(MemcachedConfig(address)).use: client =>
          client.put("greeting", "hello", ttl = 1.hour) // UTF-8, flags 0; returns once stored
          client.fetch[String]("greeting") // Some(hello)
    // end
    MemcachedServer.withServer(): server =>
      assertEquals(greet(server.address), Some("hello"))

  // example: memcached-pipelined
  def storeAndReadBack(client: MemcachedClient, items: Map[String, String])(using
      Async
  ): Map[String, Option[String]] =
    val sets = items.map((k, v) => client.pipelined.set(k, v.getBytes(UTF_8)))
    val gets = items.keys.map(k => k -> client.pipelined.get(k)) // sent behind the sets
    sets.foreach(_.await) // a set that was not stored fails here
    gets.map((k, f) => k -> f.await.toOption.map(_.string)).toMap
  // end

  test("memcached: pipelined calls read back what was stored"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        MemcachedClient.resource(MemcachedConfig(server.address)).use: client =>
          val items = (1 to 100).map(i => s"item$i" -> s"value$i").toMap
          assertEquals(storeAndReadBack(client, items), items.map((k, v) => k -> Some(v)))

  // example: memcached-cache
  def cached(client: MemcachedClient, key: String)(compute: => String)(using Async): String =
    val hit =
      try client.fetch[String](key, deadline = 100.millis)
      catch case e: MemcachedException if e.retriable => None // down, slow, overloaded: a miss
    hit.getOrElse:
      val v = compute
      try client.put(key, v, ttl = 10.minutes, deadline = 100.millis)
      catch case e: MemcachedException if e.retriable => () // not stored: the next miss stores it
      v
  // end

  // example: memcached-read-through
  final class ReadThrough(client: MemcachedClient, loads: SingleFlight[String, String]):
    def get(key: String)(load: => String)(using Async): String =
      val hit =
        try client.fetch[String](key, deadline = 50.millis)
        catch case e: MemcachedException if e.retriable => None // down or slow: a miss
      hit.getOrElse:
        loads(key): // concurrent misses of `key` share this one load
          val v = load
          try client.put(key, v, ttl = 10.minutes, deadline = 50.millis) // write-back
          catch case e: MemcachedException if e.retriable => () // best effort
          v

  def service(client: MemcachedClient)(using Async): ReadThrough =
    ReadThrough(client, SingleFlight[String, String]()) // owned by the service's scope
  // end

  /** 50 concurrent misses of one key through `service`: how many loads ran. */
  private def fiftyMisses(address: String): (Seq[String], Int) =
    val loads = java.util.concurrent.atomic.AtomicInteger()
    val release = java.util.concurrent.CountDownLatch(1)
    Async.blocking:
      MemcachedClient.resource(MemcachedConfig(address)).use: client =>
        val cache = service(client)
        val misses = (1 to 50).map: _ =>
          Future:
            cache.get("hot"):
              loads.incrementAndGet()
              release.await() // the load is slow: every miss comes while it is in flight
              "value"
        while loads.get == 0 do Thread.sleep(1)
        Thread.sleep(50) // let the misses pile up (they wait, whether or not they joined yet)
        release.countDown()
        (misses.map(_.await), loads.get)

  test("memcached: the read-through cache loads a key once for concurrent misses"):
    MemcachedServer.withServer(): server =>
      val (values, loads) = fiftyMisses(server.address)
      assertEquals(values, Seq.fill(50)("value"))
      assert(loads < 50, s"$loads loads for 50 concurrent misses")
      Async.blocking:
        MemcachedClient.resource(MemcachedConfig(server.address)).use: client =>
          assertEquals(client.fetch[String]("hot"), Some("value"), "the load was not written back")

  test("memcached: with the server down, concurrent misses still share their loads"):
    val (values, loads) = fiftyMisses(s"127.0.0.1:${MemcachedServer.freePort()}")
    assertEquals(values, Seq.fill(50)("value"))
    assert(loads < 50, s"$loads loads for 50 concurrent misses")

  test("memcached: a cache in front of a computation, which survives a dead server"):
    var computed = 0
    def compute =
      computed += 1; "value"
    MemcachedServer.withServer(): server =>
      Async.blocking:
        MemcachedClient.resource(MemcachedConfig(server.address)).use: client =>
          assertEquals(cached(client, "k")(compute), "value")
          assertEquals(cached(client, "k")(compute), "value")
    assertEquals(computed, 1)
    val nobody = s"127.0.0.1:${MemcachedServer.freePort()}"
    Async.blocking:
      MemcachedClient.resource(MemcachedConfig(nobody)).use: client =>
        assertEquals(cached(client, "k")(compute), "value") // Unavailable: computed
    assertEquals(computed, 2)

  // example: memcached-cas
  def addToCart(client: MemcachedClient, cart: String, item: String)(using Async): Unit =
    var done = false
    while !done do // optimistic: retry when another writer changed the cart meanwhile
      done = client.gets(cart) match
        case hit: Hit =>
          val items = s"${hit.string},$item".getBytes(UTF_8)
          client.cas(cart, items, hit.cas) == StoreResult.Stored // Exists: changed, try again
        case Miss =>
          client.add(cart, item.getBytes(UTF_8)) == StoreResult.Stored // NotStored: lost a race
  // end

  test("memcached: concurrent read-modify-write with gets and cas loses no update"):
    MemcachedServer.withServer(): server =>
      val items = Async.blocking:
        MemcachedClient.resource(MemcachedConfig(server.address)).use: client =>
          (1 to 20).map(i => Future(addToCart(client, "cart", s"item$i"))).awaitAll: Unit
          client.fetch[String]("cart").get.split(',').toSet
      assertEquals(items, (1 to 20).map(i => s"item$i").toSet)
