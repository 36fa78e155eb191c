package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.{ConcurrentHashMap, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import weft.LincheckRuns
import weft.testing.Stress
import weft.internal.keyed.{KeyTable, KeyedTask}

/** A key whose hash code is chosen by the test, to force collisions. */
final case class Collider(id: Int, hash: Int):
  override def hashCode: Int = hash

/**
 * Lincheck target: a [[KeyTable]] of one bin that grows at chains of two, so that growth races
 * with every operation. Keys 1..4 have hash codes 1..4 (spread leaves them as they are).
 *
 * The operations follow the executor's protocol: an entry dies by a CAS of its `lane` from
 * `null` to `Lane.Dead` (as the runner of a lone entry does), and only dead entries are removed,
 * by identity, either at once or never (left for an install of their key to replace).
 */
@Param(name = "k", gen = classOf[IntGen], conf = "1:4")
class LincheckKeyTable:
  private val t = KeyTable[Int](initialCapacity = 1, growAt = 2)

  @Operation def install(k: Int): Boolean = t.putIfAbsent(entry(k)) == null

  @Operation def contains(k: Int): Boolean = t.get(k) != null

  /** Retires the key's live entry and removes it; `false` if the key has no live entry. */
  @Operation def retireAndRemove(k: Int): Boolean =
    val l = retire(k)
    if l != null then t.remove(l)
    l != null

  /** Retires the key's live entry and leaves it in the table; `false` if there is none. */
  @Operation def retireKey(k: Int): Boolean = retire(k) != null

  private def retire(k: Int): KeyedTask[?] | Null =
    val e = t.get(k)
    if e != null && e.retireAlone() then e else null

/** The key map of [[Sequentially]]: semantics, growth, concurrency and linearizability. */
class KeyTableSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  test("install, look up and remove entries; a second install of a key returns the first"):
    val t = KeyTable[String]()
    val a = entry("a")
    assertEquals(t.putIfAbsent(a), null)
    assert(t.putIfAbsent(entry("a")) eq a)
    assert(t.get("a") eq a)
    assertEquals(t.get("b"), null)
    assertEquals(t.size, 1)
    assert(!t.remove(entry("a")), "removal is by identity")
    assert(t.remove(a))
    assert(!t.remove(a))
    assertEquals(t.get("a"), null)
    assertEquals(t.size, 0)

  test("a dead entry: lookups skip it, an install replaces it, removal is by identity"):
    val t = KeyTable[String]()
    val old = entry("a")
    assertEquals(t.putIfAbsent(old), null)
    assert(old.retireAlone())
    assertEquals(t.get("a"), null)
    assertEquals(t.size, 0)
    assertEquals(t.retained, 1)
    var visited = 0
    t.foreach(_ => visited += 1)
    assertEquals(visited, 0)
    val fresh = entry("a")
    assertEquals(t.putIfAbsent(fresh), null)
    assert(t.get("a") eq fresh)
    assertEquals(t.retained, 1)
    assert(!t.remove(old), "the dead entry was replaced")
    assert(t.get("a") eq fresh)
    assert(t.remove(fresh))
    assertEquals(t.retained, 0)

  test("a dead entry in a chain is replaced in place; the others stay"):
    val t = KeyTable[Collider]()
    val entries = (0 until 3).map(i => entry(Collider(i, 7)))
    entries.foreach(l => assertEquals(t.putIfAbsent(l), null))
    assert(entries(1).retireAlone())
    val fresh = entry(Collider(1, 7))
    assertEquals(t.putIfAbsent(fresh), null)
    assertEquals(t.retained, 3)
    assert(t.get(Collider(0, 7)) eq entries(0))
    assert(t.get(Collider(1, 7)) eq fresh)
    assert(t.get(Collider(2, 7)) eq entries(2))

  test("growth keeps every entry, and removing them all leaves the table empty"):
    val t = KeyTable[Int]()
    val entries = (0 until 10_000).map(k => entry(k))
    entries.foreach(l => assertEquals(t.putIfAbsent(l), null))
    assert(t.capacity >= 2048, s"capacity ${t.capacity}")
    assertEquals(t.size, 10_000)
    entries.foreach(l => assert(t.get(l.key.asInstanceOf[Int]) eq l))
    var seen = 0
    t.foreach(_ => seen += 1)
    assertEquals(seen, 10_000)
    entries.foreach(l => assert(t.remove(l)))
    assertEquals(t.size, 0)

  test("churn of distinct keys does not grow the table beyond its load"):
    // At most 2,000 live keys at a time, 2 million in all: a chain of four entries turns up
    // somewhere at any load, but the table grows only where it is crowded.
    val t = KeyTable[Int]()
    val rnd = scala.util.Random(7)
    val live = new Array[KeyedTask[?]](2_000)
    for i <- 0 until 2_000_000 do
      val slot = i % live.length
      if live(slot) != null then assert(t.remove(live(slot)))
      val l = entry(rnd.nextInt())
      if t.putIfAbsent(l) == null then live(slot) = l else live(slot) = null
    assert(t.capacity <= 16384, s"capacity ${t.capacity} for at most 2,000 live keys")
    assert(t.capacity >= 1024, s"capacity ${t.capacity}")
    live.foreach(l => if l != null then assert(t.get(l.key.asInstanceOf[Int]) eq l))

  test("keys whose hashes share their low bits still grow the table: chains stay short"):
    // Multiples of 32 use one bin in 32: the bins around a chain look empty, but the chain grows.
    val t = KeyTable[Int]()
    val entries = (0 until 2_000).map(i => entry(i * 32))
    entries.foreach(l => assertEquals(t.putIfAbsent(l), null))
    // 2,000 keys in (capacity / 32) bins, each chain below 8 entries: at least 8,192 bins.
    assert(t.capacity >= 8192, s"capacity ${t.capacity}")
    entries.foreach(l => assert(t.get(l.key.asInstanceOf[Int]) eq l))

  test("keys with equal hash codes share a chain and do not grow the table"):
    val t = KeyTable[Collider]()
    val entries = (0 until 100).map(i => entry(Collider(i, 7)))
    entries.foreach(l => assertEquals(t.putIfAbsent(l), null))
    assertEquals(t.capacity, 64)
    entries.foreach(l => assert(t.get(l.key.asInstanceOf[Collider]) eq l))
    entries.reverse.foreach(l => assert(t.remove(l)))
    assertEquals(t.size, 0)

  test("racing installs of one key leave exactly one entry; distinct keys all land"):
    val threads = 8
    val rounds = 20_000
    val t = KeyTable[Int](initialCapacity = 1)
    val winners = ConcurrentHashMap[Int, AtomicInteger]()
    val start = CountDownLatch(1)
    val workers = (0 until threads).map: id =>
      Thread.ofPlatform().start: () =>
        start.await()
        var r = 0
        while r < rounds do
          // shared keys 0..999 race between threads; the others are the thread's own
          val key = if r % 2 == 0 then (r / 2) % 1000 else 1_000_000 + id * rounds + r
          if t.putIfAbsent(entry(key)) == null then
            winners.computeIfAbsent(key, _ => AtomicInteger()).incrementAndGet()
          r += 1
    start.countDown()
    workers.foreach(t => weft.testing.Waits.join(t, "a worker of the key table"))
    assertEquals(winners.size, 1000 + threads * rounds / 2)
    winners.forEach((k, n) => assertEquals(n.get, 1, s"key $k installed ${n.get} times"))
    assertEquals(t.size, winners.size)

  test("concurrent install and remove while the table grows lose nothing"):
    val threads = 4
    val keysPerThread = 50_000
    val t = KeyTable[Int](initialCapacity = 1)
    val failures = AtomicInteger()
    val workers = (0 until threads).map: id =>
      Thread.ofPlatform().start: () =>
        var k = 0
        while k < keysPerThread do
          val l = entry(id * keysPerThread + k)
          if t.putIfAbsent(l) != null then failures.incrementAndGet()
          // remove every other lane at once: removals race with the growth of other threads
          if k % 2 == 0 && !t.remove(l) then failures.incrementAndGet()
          k += 1
    workers.foreach(t => weft.testing.Waits.join(t, "a worker of the key table"))
    assertEquals(failures.get, 0)
    assertEquals(t.size, threads * keysPerThread / 2)
    for id <- 0 until threads; k <- 0 until keysPerThread do
      val present = t.get(id * keysPerThread + k) != null
      assertEquals(present, k % 2 == 1, s"key ${id * keysPerThread + k}")

  test("linearizable under model checking (growth racing installs and removals)".tag(Stress.tag)):
    LincheckRuns.modelCheck(classOf[LincheckKeyTable], 10, 30, threads = 2, actorsPerThread = 3)

  test("linearizable under stress".tag(Stress.tag)):
    LincheckRuns.stress(classOf[LincheckKeyTable], 20, 500, threads = 3, actorsPerThread = 3)
