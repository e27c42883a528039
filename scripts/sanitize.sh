#!/usr/bin/env bash
# Builds the package and runs the test suite under AddressSanitizer or ThreadSanitizer.
#   scripts/sanitize.sh address [swift test arguments, e.g. --filter KilnModelTests]
#   scripts/sanitize.sh thread  [swift test arguments]
# Each sanitizer builds into its own scratch directory, so switching between them (or back to the
# plain build) does not throw the others' build caches away. Too slow for every CI run (see
# docs/security.md, "Fuzzing and sanitizers"): run both before a release.
source "$(dirname "$0")/common.sh"

sanitizer="${1:-}"
case "$sanitizer" in
  address | thread) shift ;;
  *) echo "usage: $0 address|thread [swift test arguments]" >&2; exit 64 ;;
esac

bash scripts/install-deps.sh --test
python3 scripts/make-podcast.py
eval "$(bash scripts/postgres-test-cluster.sh start)"
trap 'bash scripts/postgres-test-cluster.sh stop "$KILN_TEST_POSTGRES_DIR"' EXIT

# Leaks are not failures here: the Swift runtime and Foundation keep process-lifetime caches that
# LeakSanitizer reports at exit. Any sanitizer report ends the run non-zero.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1:${ASAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:${TSAN_OPTIONS:-}"
swift test "${KILN_TEST_FLAGS[@]}" --sanitize="$sanitizer" --scratch-path ".build/sanitize-$sanitizer" \
  --disable-swift-testing "$@"
