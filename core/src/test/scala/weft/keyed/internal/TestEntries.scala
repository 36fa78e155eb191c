package weft.keyed
package internal

/** A new key entry for `key`, as `run` installs (a task that never runs itself): for the tests. */
def entry(key: Any): KeyedTask[Unit] = KeyedTask.inlineEntry(key, KeyTable.spread(key.##))
