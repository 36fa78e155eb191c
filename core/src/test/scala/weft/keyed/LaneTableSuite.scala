package weft.keyed

import java.util.concurrent.{ConcurrentHashMap, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import weft.LincheckRuns

/** A key whose hash code is chosen by the test, to force collisions. */
final case class Collider(id: Int, hash: Int):
  override def hashCode: Int = hash

/**
 * Lincheck target: a [[LaneTable]] of one bin that grows at chains of two, so that growth races
 * with every operation. Keys 1..4 have hash codes 1..4 (spread leaves them as they are).
 *
 * The operations follow the executor's protocol: a lane dies by a CAS of its `count` from 1 to
 * `RETIRED` (as its last task's runner does), and only dead lanes are removed, by identity,
 * either at once or never (left for an install of their key to replace).
 */
@Param(name = "k", gen = classOf[IntGen], conf = "1:4")
class LincheckLaneTable:
  private val t = LaneTable[Int](initialCapacity = 1, growAt = 2)

  @Operation def install(k: Int): Boolean = t.putIfAbsent(Lane[Int](k, null)) == null

  @Operation def contains(k: Int): Boolean = t.get(k) != null

  /** Retires the key's live lane and removes it; `false` if the key has no live lane. */
  @Operation def retireAndRemove(k: Int): Boolean =
    val l = retire(k)
    if l != null then t.remove(l)
    l != null

  /** Retires the key's live lane and leaves it in the table; `false` if there is none. */
  @Operation def retireKey(k: Int): Boolean = retire(k) != null

  private def retire(k: Int): Lane[Int] | Null =
    val l = t.get(k)
    if l != null && Lane.COUNT.compareAndSet(l, 1, Lane.RETIRED) then l else null

/** The key map of [[Sequentially]]: semantics, growth, concurrency and linearizability. */
class LaneTableSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  test("install, look up and remove lanes; a second install of a key returns the first"):
    val t = LaneTable[String]()
    val a = Lane[String]("a", null)
    assertEquals(t.putIfAbsent(a), null)
    assert(t.putIfAbsent(Lane[String]("a", null)) eq a)
    assert(t.get("a") eq a)
    assertEquals(t.get("b"), null)
    assertEquals(t.size, 1)
    assert(!t.remove(Lane[String]("a", null)), "removal is by identity")
    assert(t.remove(a))
    assert(!t.remove(a))
    assertEquals(t.get("a"), null)
    assertEquals(t.size, 0)

  test("a retired lane is dead: lookups skip it, an install replaces it, removal is by identity"):
    val t = LaneTable[String]()
    val old = Lane[String]("a", null)
    assertEquals(t.putIfAbsent(old), null)
    old.count = Lane.RETIRED
    assertEquals(t.get("a"), null)
    assertEquals(t.size, 0)
    assertEquals(t.retained, 1)
    var visited = 0
    t.foreach(_ => visited += 1)
    assertEquals(visited, 0)
    val fresh = Lane[String]("a", null)
    assertEquals(t.putIfAbsent(fresh), null)
    assert(t.get("a") eq fresh)
    assertEquals(t.retained, 1)
    assert(!t.remove(old), "the retired lane was replaced")
    assert(t.get("a") eq fresh)
    assert(t.remove(fresh))
    assertEquals(t.retained, 0)

  test("a retired lane in a chain is replaced in place; the other lanes stay"):
    val t = LaneTable[Collider]()
    val lanes = (0 until 3).map(i => Lane[Collider](Collider(i, 7), null))
    lanes.foreach(l => assertEquals(t.putIfAbsent(l), null))
    lanes(1).count = Lane.RETIRED
    val fresh = Lane[Collider](Collider(1, 7), null)
    assertEquals(t.putIfAbsent(fresh), null)
    assertEquals(t.retained, 3)
    assert(t.get(Collider(0, 7)) eq lanes(0))
    assert(t.get(Collider(1, 7)) eq fresh)
    assert(t.get(Collider(2, 7)) eq lanes(2))

  test("growth keeps every lane, and removing them all leaves the table empty"):
    val t = LaneTable[Int]()
    val lanes = (0 until 10_000).map(k => Lane[Int](k, null))
    lanes.foreach(l => assertEquals(t.putIfAbsent(l), null))
    assert(t.capacity >= 2048, s"capacity ${t.capacity}")
    assertEquals(t.size, 10_000)
    lanes.foreach(l => assert(t.get(l.key) eq l))
    var seen = 0
    t.foreach(_ => seen += 1)
    assertEquals(seen, 10_000)
    lanes.foreach(l => assert(t.remove(l)))
    assertEquals(t.size, 0)

  test("churn of distinct keys does not grow the table beyond its load"):
    // At most 2,000 live keys at a time, 2 million in all: a chain of four lanes turns up
    // somewhere at any load, but the table grows only where it is crowded.
    val t = LaneTable[Int]()
    val rnd = scala.util.Random(7)
    val live = new Array[Lane[Int]](2_000)
    for i <- 0 until 2_000_000 do
      val slot = i % live.length
      if live(slot) != null then assert(t.remove(live(slot)))
      val l = Lane[Int](rnd.nextInt(), null)
      if t.putIfAbsent(l) == null then live(slot) = l else live(slot) = null
    assert(t.capacity <= 16384, s"capacity ${t.capacity} for at most 2,000 live keys")
    assert(t.capacity >= 1024, s"capacity ${t.capacity}")
    live.foreach(l => if l != null then assert(t.get(l.key) eq l))

  test("keys whose hashes share their low bits still grow the table: chains stay short"):
    // Multiples of 32 use one bin in 32: the bins around a chain look empty, but the chain grows.
    val t = LaneTable[Int]()
    val lanes = (0 until 2_000).map(i => Lane[Int](i * 32, null))
    lanes.foreach(l => assertEquals(t.putIfAbsent(l), null))
    // 2,000 keys in (capacity / 32) bins, each chain below 8 lanes: at least 8,192 bins.
    assert(t.capacity >= 8192, s"capacity ${t.capacity}")
    lanes.foreach(l => assert(t.get(l.key) eq l))

  test("keys with equal hash codes share a chain and do not grow the table"):
    val t = LaneTable[Collider]()
    val lanes = (0 until 100).map(i => Lane[Collider](Collider(i, 7), null))
    lanes.foreach(l => assertEquals(t.putIfAbsent(l), null))
    assertEquals(t.capacity, 64)
    lanes.foreach(l => assert(t.get(l.key) eq l))
    lanes.reverse.foreach(l => assert(t.remove(l)))
    assertEquals(t.size, 0)

  test("racing installs of one key leave exactly one lane; distinct keys all land"):
    val threads = 8
    val rounds = 20_000
    val t = LaneTable[Int](initialCapacity = 1)
    val winners = ConcurrentHashMap[Int, AtomicInteger]()
    val start = CountDownLatch(1)
    val workers = (0 until threads).map: id =>
      Thread.ofPlatform().start: () =>
        start.await()
        var r = 0
        while r < rounds do
          // shared keys 0..999 race between threads; the others are the thread's own
          val key = if r % 2 == 0 then (r / 2) % 1000 else 1_000_000 + id * rounds + r
          if t.putIfAbsent(Lane[Int](key, null)) == null then
            winners.computeIfAbsent(key, _ => AtomicInteger()).incrementAndGet()
          r += 1
    start.countDown()
    workers.foreach(_.join())
    assertEquals(winners.size, 1000 + threads * rounds / 2)
    winners.forEach((k, n) => assertEquals(n.get, 1, s"key $k installed ${n.get} times"))
    assertEquals(t.size, winners.size)

  test("concurrent install and remove while the table grows lose nothing"):
    val threads = 4
    val keysPerThread = 50_000
    val t = LaneTable[Int](initialCapacity = 1)
    val failures = AtomicInteger()
    val workers = (0 until threads).map: id =>
      Thread.ofPlatform().start: () =>
        var k = 0
        while k < keysPerThread do
          val l = Lane[Int](id * keysPerThread + k, null)
          if t.putIfAbsent(l) != null then failures.incrementAndGet()
          // remove every other lane at once: removals race with the growth of other threads
          if k % 2 == 0 && !t.remove(l) then failures.incrementAndGet()
          k += 1
    workers.foreach(_.join())
    assertEquals(failures.get, 0)
    assertEquals(t.size, threads * keysPerThread / 2)
    for id <- 0 until threads; k <- 0 until keysPerThread do
      val present = t.get(id * keysPerThread + k) != null
      assertEquals(present, k % 2 == 1, s"key ${id * keysPerThread + k}")

  test("linearizable under model checking (growth racing installs and removals)"):
    LincheckRuns.modelCheck(classOf[LincheckLaneTable], 10, 30, threads = 2, actorsPerThread = 3)

  test("linearizable under stress"):
    LincheckRuns.stress(classOf[LincheckLaneTable], 20, 500, threads = 3, actorsPerThread = 3)
