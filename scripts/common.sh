# Shared by the scripts in this folder: where we are and how we build.
set -euo pipefail
KILN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$KILN_ROOT"

# Release kernels are built for the CPU level they run on (AVX2 + FMA + F16C, "haswell") when the
# machine has it: without it rounding and Float16 conversion become library calls per lane. With
# AVX-512 (F, BW, DQ, VL) they are built for it: 32 vector registers and two-source shuffles make
# the sampling kernels 3–7 % faster, and the frames are byte-identical (no multiply-add is fused
# at any level; docs/performance.md, "CPU level and portability").
# KILN_PORTABLE=1 builds for baseline x86-64 instead.
KILN_SWIFT_FLAGS=(-c release -Xswiftc -warnings-as-errors)
kiln_cpu_has() {
  local flag
  for flag in "$@"; do grep -qw "$flag" /proc/cpuinfo || return 1; done
}
if [ "${KILN_PORTABLE:-0}" != 1 ] && [ "$(uname -m)" = x86_64 ] && kiln_cpu_has avx2 fma f16c; then
  kiln_cpu=haswell
  if kiln_cpu_has avx512f avx512bw avx512dq avx512vl; then
    # Each vendor's first AVX-512 core of the kind: tuned for it, no instruction it lacks.
    if grep -qw AuthenticAMD /proc/cpuinfo; then kiln_cpu=znver4; else kiln_cpu=skylake-avx512; fi
    # The photo-card painter's texel pairs load through an AVX-512 gather (Sources/CKilnIntrinsics):
    # Swift cannot emit one, and its lane-by-lane loads made that painter about a tenth slower. The
    # other samplers' taps are vector loads, which a gather did not beat (docs/performance.md).
    KILN_SWIFT_FLAGS+=(-Xswiftc -DKILN_GATHERS)
  fi
  KILN_SWIFT_FLAGS+=(-Xswiftc -target-cpu -Xswiftc "$kiln_cpu" -Xcc "-march=$kiln_cpu")
fi

# Test builds compile the fault switches the tests drive (`#if KILN_TEST_HOOKS`: the
# fault-injection switches, the memory estimate's under-count); the binaries a user builds
# (install.sh, showcase.sh, kiln_build) never contain them, and scripts/test.sh checks that.
# -enable-testing is stated because SwiftPM drops its own testability for a release build once
# an extra -D is passed (the tests' @testable imports then fail).
KILN_TEST_FLAGS=("${KILN_SWIFT_FLAGS[@]}" -Xswiftc -DKILN_TEST_HOOKS -Xswiftc -enable-testing)

kiln_build() {
  local arg
  for arg in "$@"; do
    if [ "$arg" = --build-tests ]; then
      swift build "${KILN_TEST_FLAGS[@]}" "$@"
      return
    fi
  done
  swift build "${KILN_SWIFT_FLAGS[@]}" "$@"
}
