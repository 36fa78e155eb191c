package weft

/** Bad input gets a clear, typed error at the call. */
class BadInputSuite extends munit.FunSuite:

  test("awaiting outside an Async context does not compile, and says what to do"):
    val errors = compileErrors("Promise[Int]().future.await")
    assert(errors.contains("This needs an Async context"), errors)
    assert(errors.contains("Async.blocking"), errors)

  test("starting a future outside an Async context does not compile"):
    assert(compileErrors("Future(1)").contains("Async.blocking"))

  test("completing a promise twice"):
    val p = Promise[Int]()
    p.success(1)
    intercept[IllegalStateException](p.failure(RuntimeException()))

  test("awaiting in a cancelled group"):
    Async.blocking:
      Async.group:
        summon[Async].group.cancel()
        val e = intercept[java.util.concurrent.CancellationException](Promise[Int]().future.await)
        assert(e.getMessage.contains("cancelled"))

  test("lockBoth on listeners sharing one lock is rejected"):
    val l = NumberedLock()
    def k = new Listener[Int]:
      val lock: ListenerLock | Null = l
      def complete(data: Int, source: Source[Int]): Unit = ()
    intercept[IllegalArgumentException](Listener.lockBoth(k, k))

  test("a race or a select of nothing is rejected, instead of waiting forever"):
    intercept[IllegalArgumentException](Async.race[Int]())
    Async.blocking:
      val e = intercept[IllegalArgumentException](Async.select[Int]())
      assert(e.getMessage.contains("at least one case"), e.getMessage)

  // `null` is the pending state of a future's one field: a null result stored there would leave
  // the future pending forever and hand `null` to the listeners already registered.
  test("a null result is rejected at the call; a listener registered before never sees it"):
    val p = Promise[Int]()
    val seen = java.util.concurrent.atomic.AtomicReference[Any]("nothing")
    p.future.onComplete(Listener((r, _) => seen.set(r)))
    val e1 = intercept[NullPointerException](p.complete(null))
    assert(e1.getMessage.contains("Success(null)"), e1.getMessage)
    intercept[NullPointerException](p.tryComplete(null))
    intercept[NullPointerException](Future.now[Int](null))
    var resolver: Future.Resolver[Int] = null
    val viaResolver = Future.withResolver[Int](r => resolver = r)
    intercept[NullPointerException](resolver.complete(null))
    assertEquals(seen.get, "nothing")
    assert(!p.isCompleted && viaResolver.poll().isEmpty)
    p.success(3)
    assertEquals(seen.get, scala.util.Success(3))
    val nullValue = Promise[String]()
    nullValue.complete(scala.util.Success(null))
    assertEquals(nullValue.future.poll(), Some(scala.util.Success(null)))
