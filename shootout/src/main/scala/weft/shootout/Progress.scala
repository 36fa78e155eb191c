package weft.shootout

/**
 * Progress of a run: elapsed time and an estimate of what is left, scaled by how far the
 * prediction has been off so far.
 */
final class Progress(total: Double, clock: () => Long = () => System.nanoTime()):
  private val start = clock()
  private var predictedDone = 0.0

  /** Records that `seconds` of predicted work have finished. */
  def advance(seconds: Double): Unit = predictedDone = math.min(total, predictedDone + seconds)

  /** Seconds since the start. */
  def elapsed: Double = (clock() - start) / 1e9

  /** Estimated seconds left. */
  def left: Double =
    val remaining = total - predictedDone
    if predictedDone < 1 then remaining
    else remaining * math.max(0.5, math.min(3.0, elapsed / predictedDone))

  /** `elapsed 2m10s, ~5m00s left`. */
  def status: String = s"elapsed ${Format.duration(elapsed)}, ~${Format.duration(left)} left"
