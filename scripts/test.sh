#!/usr/bin/env bash
# Installs what Kiln and its tests need, builds (release, warnings are errors), checks formatting
# and the Dockerfile, and runs the whole test suite.
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
echo "== test (with a throwaway PostgreSQL on loopback)"
eval "$(bash scripts/postgres-test-cluster.sh start)"
trap 'bash scripts/postgres-test-cluster.sh stop "$KILN_TEST_POSTGRES_DIR"' EXIT
# The suite is XCTest; without this flag an empty Swift Testing run would print the last line.
swift test "${KILN_SWIFT_FLAGS[@]}" --disable-swift-testing "$@"
