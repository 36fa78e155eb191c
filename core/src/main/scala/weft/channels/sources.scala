package weft.channels

import java.util.concurrent.ConcurrentHashMap
import scala.util.Try
import weft.{Listener, Source}
import weft.channels.Cells.{Sender, Watch}

/**
 * `canRead` of a [[CellChannel]]: listeners wait in the channel's watch list and take the head
 * value when they accept it (see the [[CellChannel]] comment).
 */
private[channels] final class ReadSource[T](ch: CellChannel[T]) extends Source[Try[T]]:

  def poll(k: Listener[Try[T]]): Boolean =
    val w = Watch(k)
    val finished = ch.serve(w)
    if finished && (ch.watchers.get() ne Nil) then ch.notifyWatchers()
    finished

  def onComplete(k: Listener[Try[T]]): Unit =
    // Registered first, then served: a value stored meanwhile is not missed. No serve before
    // registering: a listener arrives here after a poll that found nothing (`Async.await`,
    // `Selector`), and each serve reads cells and counters the senders are writing.
    val w = Watch(k)
    ch.addWatch(w)
    if ch.serve(w) then
      ch.removeWatch(w)
      if ch.watchers.get() ne Nil then ch.notifyWatchers()

  def dropListener(k: Listener[Try[T]]): Unit =
    var ws = ch.watchers.get()
    while ws ne Nil do
      val w = ws.head
      if w.k == k then
        ch.removeWatch(w)
        w.kill()
        return
      ws = ws.tail

/**
 * `sendSource(x)` of a [[CellChannel]]: sends at once if possible, otherwise parks a
 * listener-carrying [[Cells.Sender]] in a claimed cell; dropping the listener breaks that
 * cell (the value is then not sent).
 */
private[channels] final class SendSource[T](ch: CellChannel[T], v: AnyRef)
    extends Source[Try[Unit]]:
  private val waiting = ConcurrentHashMap[Listener[Try[Unit]], Sender]()

  def poll(k: Listener[Try[Unit]]): Boolean = ch.sendNow(v, k, this)

  def onComplete(k: Listener[Try[Unit]]): Unit =
    if !poll(k) then
      val w = Sender(v, null, k, this, waiting)
      waiting.put(k, w)
      ch.addSender(w)

  def dropListener(k: Listener[Try[Unit]]): Unit =
    val w = waiting.remove(k)
    if w != null then
      w.dropped = true
      if w.acquire() then
        val seg = w.segment
        if seg != null then seg.nn.cells.compareAndSet(w.index, w, Cells.Broken)
        w.kill()
