package weft.memcached

import scala.collection.immutable.{AbstractMap, HashMap}

/**
 * The hits of one multi-get chunk as an immutable `Map`, over the `java.util.HashMap` the
 * reader filled. The request hands the map over once, complete, and nobody writes it again, so
 * the view is immutable in effect; building a persistent map instead cost more than parsing the
 * replies (`memcached-multiget-50`). `updated` and `removed` copy into a `HashMap`.
 */
final private[memcached] class HitMap(m: java.util.HashMap[String, Hit])
    extends AbstractMap[String, Hit]:

  def get(key: String): Option[Hit] = Option(m.get(key))

  override def contains(key: String): Boolean = m.containsKey(key)

  override def size: Int = m.size

  override def knownSize: Int = m.size

  override def isEmpty: Boolean = m.isEmpty

  def iterator: Iterator[(String, Hit)] =
    val it = m.entrySet.iterator
    new Iterator[(String, Hit)]:
      def hasNext: Boolean = it.hasNext
      def next(): (String, Hit) =
        val e = it.next()
        (e.getKey, e.getValue)

  def removed(key: String): Map[String, Hit] = HashMap.from(this).removed(key)

  def updated[V1 >: Hit](key: String, value: V1): Map[String, V1] =
    HashMap.from[String, V1](this).updated(key, value)
