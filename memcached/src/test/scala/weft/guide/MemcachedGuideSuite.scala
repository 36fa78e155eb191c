package weft.guide

import java.nio.charset.StandardCharsets.UTF_8
import scala.concurrent.duration.*
import weft.*
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

  // example: memcached-cache
  def cached(client: MemcachedClient, key: String)(compute: => String)(using Async): String =
    try
      client.fetch[String](key, deadline = 100.millis) match
        case Some(v) => v
        case None =>
          val v = compute
          client.put(key, v, ttl = 10.minutes)
          v
    catch case e: MemcachedException if e.retriable => compute // down, slow, overloaded
  // end

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
