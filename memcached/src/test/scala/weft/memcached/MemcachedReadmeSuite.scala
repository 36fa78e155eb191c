package weft.memcached

import weft.*

/** The README's memcached example: the same lines, run against a real server. */
class MemcachedReadmeSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val exampleLines = Seq(
    "import weft.*, weft.memcached.*",
    "Async.blocking:",
    "  MemcachedClient.resource(MemcachedConfig(\"127.0.0.1:11211\")).use: client =>",
    "    client.put(\"greeting\", \"hello\")          // UTF-8, flags 0: what the Java clients write",
    "    println(client.fetch[String](\"greeting\")) // Some(hello)"
  )

  test("README shows the example below, line for line"):
    val readme = scala.io.Source.fromFile("../README.md", "UTF-8").mkString
    val block = exampleLines.map("  " + _).mkString("\n")
    assert(readme.contains(block), s"README.md no longer holds:\n$block")

  test("README example: put then fetch a String"):
    MemcachedServer.withServer(): server =>
      val out = java.io.ByteArrayOutputStream()
      Console.withOut(out):
        Async.blocking:
          MemcachedClient.resource(MemcachedConfig(server.address)).use: client =>
            client.put("greeting", "hello")
            println(client.fetch[String]("greeting"))
      assertEquals(out.toString.trim, "Some(hello)")
