#!/usr/bin/env bash
# Issue 20's soak (opt-in, not part of scripts/test.sh): installs what the tests need, builds, and
# runs Tests/KilnCLITests/SoakTests.swift — two workers over a stream of good and hostile jobs with
# kill -9, SIGTERM and a full output disk at random — then prints the report per invariant (also
# written to .build/soak-report.txt). Run as root for the disk-full window (a tmpfs mount).
#   scripts/soak.sh                                       the full run: >= 600 s, >= 300 jobs
#   KILN_SOAK_SECONDS=60 KILN_SOAK_JOBS=40 scripts/soak.sh   a short run while developing
# Other knobs: KILN_SOAK_SEED (repeat a run's job mix and fault schedule), KILN_SOAK_EXCLUDE
# (comma-separated hostile fixtures to leave out), KILN_SOAK_DRAIN_SECONDS (default 300),
# KILN_SOAK_MEMORY_MB (address-space limit of each kiln process, default 4096),
# KILN_SOAK_HOSTILE_EVERY (default 3), KILN_SOAK_KEEP=1 (keep the work directory), KILN_SOAK_REPORT.
source "$(dirname "$0")/common.sh"
bash scripts/install-deps.sh --test
kiln_build
export KILN_SOAK=1
swift test "${KILN_TEST_FLAGS[@]}" --disable-swift-testing --filter SoakTests "$@"
