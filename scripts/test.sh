#!/usr/bin/env bash
# Installs what Kiln and its tests need, builds (release, warnings are errors), checks formatting
# and the Dockerfile, runs the whole test suite, then fuzzes each parser for KILN_FUZZ_SECONDS
# (default 60; 0 skips it) with scripts/fuzz.sh.
source "$(dirname "$0")/common.sh"
bash scripts/install-deps.sh --test
export PATH="${KILN_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/tools}/bin:$PATH"

echo "== lint: swift format"
swift format lint --strict --recursive --parallel Package.swift Sources Tests
echo "== lint: hadolint Dockerfile"
hadolint Dockerfile
echo "== podcast demo audio (espeak-ng)"
python3 scripts/make-podcast.py
echo "== build"
kiln_build
echo "== the release binary holds no test hooks"
if grep -aqE 'KILN_(FAULT|TEST)_' "$(swift build "${KILN_SWIFT_FLAGS[@]}" --show-bin-path)/kiln"; then
  echo "error: the release kiln binary contains a KILN_FAULT_ or KILN_TEST_ switch (test hooks leaked)" >&2
  exit 1
fi
echo "== test (with a throwaway PostgreSQL on loopback)"
eval "$(bash scripts/postgres-test-cluster.sh start)"
trap 'bash scripts/postgres-test-cluster.sh stop "$KILN_TEST_POSTGRES_DIR"' EXIT
# The suite is XCTest; without this flag an empty Swift Testing run would print the last line.
swift test "${KILN_TEST_FLAGS[@]}" --disable-swift-testing "$@"
if [ "${KILN_FUZZ_SECONDS:-60}" != 0 ]; then
  echo "== fuzz (libFuzzer, ${KILN_FUZZ_SECONDS:-60} s per target)"
  bash scripts/fuzz.sh "${KILN_FUZZ_SECONDS:-60}"
fi
