package weft
package internal.keyed

import weft.keyed.*

import weft.internal.keyed.{KeyTable, KeyedTask}

/** A new key entry for `key`, as `run` installs (a task that never runs itself): for the tests. */
def entry(key: Any): KeyedTask[Unit] = KeyedTask.inlineEntry(key, KeyTable.spread(key.##))
