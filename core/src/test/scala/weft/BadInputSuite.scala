package weft

/** Bad input gets a clear, typed error at the call. */
class BadInputSuite extends munit.FunSuite, weft.testing.Deadlined:

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

  test("a negative delay, timeout or period is refused naming the call and the parameter"):
    import scala.concurrent.duration.*
    def refuses(expected: String)(body: => Any): Unit =
      val e = intercept[IllegalArgumentException](body)
      assertEquals(e.getMessage, expected)
    refuses("Timer: the delay must be >= 0, got -1 ms")(Timer(-1L))
    refuses("Timer: the delay must be >= 0, got -1 milliseconds")(Timer(-1.milli))
    refuses("Timer: the delay must be >= 0, got -1 ms")(StartableTimer(-1L))
    Async.blocking:
      refuses("sleep: the delay must be >= 0, got -1 ms")(sleep(-1L))
      refuses("sleep: the delay must be >= 0, got -2 seconds")(sleep(-2.seconds))
      refuses("withTimeout: the timeout must be >= 0, got -1 ms")(withTimeout(-1L)(1))
      refuses("withTimeout: the timeout must be >= 0, got -1 seconds")(withTimeout(-1.second)(1))
      refuses("withTimeoutOption: the timeout must be >= 0, got -5 ms")(
        withTimeoutOption(-5L)(1)
      )
      refuses("withTimeoutEither: the timeout must be >= 0, got -1 ms")(
        withTimeoutEither(-1L, "late")(1)
      )
      refuses("onTimeout: the timeout must be >= 0, got -1 ms")(onTimeout(-1L)(1))
      refuses("onTimeout: the timeout must be >= 0, got -1 nanoseconds")(onTimeout(-1.nano)(1))
      refuses("Ticker: the period must be > 0, got 0 ms")(Ticker(0L))
      refuses("Ticker: the period must be > 0, got 0 days")(Ticker(0.days))

  // More milliseconds than a FiniteDuration holds used to fail with Scala's "Duration is limited
  // to +-(2^63-1)ns"; they mean "never", as the longest duration does.
  test("huge delays are accepted and mean never: Long.MaxValue ms, the longest duration"):
    import scala.concurrent.duration.*
    val longest = Long.MaxValue.nanos
    val t1 = Timer(Long.MaxValue)
    val t2 = Timer(longest)
    assert(!t1.isDone && !t2.isDone)
    t1.cancel()
    t2.cancel()
    Async.blocking:
      assertEquals(withTimeout(Long.MaxValue)(42), 42)
      assertEquals(withTimeoutOption(Long.MaxValue)(43), Some(43))
      assertEquals(withTimeoutEither(Long.MaxValue, "late")(44), Right(44))
      assertEquals(withTimeoutOption(1L)(sleep(Long.MaxValue)), None, "a sleep until cancelled")
      val later = Future:
        sleep(5)
        "the other case"
      assertEquals(
        Async.select(later ~~> (_.get), onTimeout(Long.MaxValue)("timed out")),
        "the other case"
      )
      val huge = Seq(Ticker(Long.MaxValue), Ticker(longest))
      val reference = Ticker(1L)
      // The one timer thread runs tasks in the order of their instants: a huge ticker due at
      // once would have ticked before the reference's fifth tick.
      for _ <- 1 to 5 do assert(Async.await(reference))
      assertEquals(huge.map(_.ticks), Seq(0L, 0L))
