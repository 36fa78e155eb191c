package weft
package internal

/**
 * Marks a definition of core that weft's other modules (`weft-io`, `weft-slf4j`,
 * `weft-memcached`) build on, or that core's inline code in other packages names: it is public so
 * that they can reach it from their own jars (and so that an inline body needs no accessor,
 * which Scala 3.3 compiles wrongly for a `private[weft]` object of another package: see
 * `LayersSuite`, "no class refers to a package as an object"), and it comes with no
 * compatibility promise. Applications should not use it; it may change or go in any release.
 *
 * Everything else under `weft.internal` is `private[weft]`: core's own. `PublicApiSuite` checks
 * both rules (a public definition under `weft.internal` carries this annotation, and the
 * other modules use nothing `private[weft]` of core), and lists the internal API in
 * `docs/api/core-internal.txt`, so a change to it shows in review as a public one does.
 */
final class InternalApi extends scala.annotation.StaticAnnotation
