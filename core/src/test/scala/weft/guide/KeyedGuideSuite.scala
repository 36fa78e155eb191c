package weft.guide

import scala.collection.concurrent.TrieMap
import weft.*
import weft.keyed.Sequentially

/** The examples of docs/guide/keyed.md, run. */
class KeyedGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("keyed: one task at a time per key"):
    // example: keyed-basic
    val alice = Async.blocking:
      val accounts = Sequentially[String]()
      val balance = TrieMap[String, Int]()
      val deposits = (1 to 100).map: i =>
        val account = if i % 2 == 0 then "alice" else "bob"
        accounts.submit(account): // same key: one at a time, in submission order
          val old = balance.getOrElse(account, 0) // read-modify-write, no lock needed
          balance(account) = old + i
      deposits.foreach(_.await)
      accounts.run("alice")(balance("alice")) // direct style: waits for its turn; 2550
    // end
    assertEquals(alice, (2 to 100 by 2).sum)
