#!/usr/bin/env bash
# The mutation check: plants each hand-written mutant of mutation/mutants.txt in a scratch copy
# of the repository (never in this working tree), runs the suites named for it, and prints
# KILLED / SURVIVED per mutant and the score. One scratch copy and one sbt session for all
# mutants (the `mutate` command of mutation/sbt/Mutation.scala). See mutation/README.md.
#
#   mutation/run.sh [--timeout SECONDS] [id ...]     # no id: every mutant
#
# The scratch copy is kept between runs (its build outputs make the next run's compiles
# incremental): $WEFT_MUTATION_DIR, default ${TMPDIR:-/tmp}/weft-mutation-<uid>.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

timeout=300
if [ "${1:-}" = "--timeout" ]; then
  timeout="$2"
  shift 2
fi

scratch="${WEFT_MUTATION_DIR:-${TMPDIR:-/tmp}/weft-mutation-$(id -u)}"
case "$scratch" in
  "$repo" | "$repo"/*) echo "mutation: the scratch directory must be outside the repository" >&2; exit 2 ;;
esac
mkdir -p "$scratch"

# Mirror the working tree (tracked and untracked files, not ignored ones) into the scratch copy,
# keeping the scratch copy's build outputs (target/ directories).
find "$scratch" -mindepth 1 -name target -prune -o -type f -print0 | xargs -0 -r rm -f
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -C "$scratch" -xf -
cp mutation/sbt/Mutation.scala "$scratch/project/Mutation.scala"
echo 'commands += Mutation.command' >"$scratch/mutation.sbt"

results="mutation-results.txt"
log="$scratch/mutation.log"
echo "mutation: scratch copy $scratch, timeout ${timeout}s per mutant, full log $log"
set +e
# The Lincheck runs at full size (as the mutants were scored), the storms at the test run's size.
(cd "$scratch" && WEFT_STRESS=full WEFT_STORM_OPS=1500 ./sbtw "mutate mutation/mutants.txt $timeout $results $*" </dev/null 2>&1) |
  tee "$log" | sed -u 's/\x1b\[[0-9;]*m//g' | grep -a --line-buffered '\[mutation\]'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ] || [ ! -s "$scratch/$results" ]; then
  grep -a '\[error\]' "$log" | tail -20 >&2
  echo "mutation: the run failed (sbt exit $status); see $log" >&2
  exit 1
fi

echo
awk '{ printf "%-10s %-32s %s\n", $2, $1, substr($0, length($1) + length($2) + 3) }' "$scratch/$results"
awk '
  $2 == "KILLED" || $2 == "TIMEOUT" { killed++ }
  $2 == "SURVIVED" { survived++; names = names " " $1 }
  $2 == "NOCOMPILE" { broken++ }
  $2 == "EQUIVALENT" { equivalent++ }
  END {
    total = killed + survived
    printf "\nscore: %d of %d killed (%.0f%%)", killed, total, total ? 100 * killed / total : 0
    printf "; %d equivalent excluded; %d do not compile\n", equivalent, broken
    if (survived) print "survivors:" names
    if (broken) exit 1
  }' "$scratch/$results"
