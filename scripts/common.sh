# Shared by the scripts in this folder: where we are and how we build.
set -euo pipefail
KILN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$KILN_ROOT"

# Release kernels are built for the CPU level they run on (AVX2 + FMA + F16C, "haswell") when the
# machine has it: without it rounding and Float16 conversion become library calls per lane.
# KILN_PORTABLE=1 builds for baseline x86-64 instead (see docs/performance.md).
KILN_SWIFT_FLAGS=(-c release -Xswiftc -warnings-as-errors)
if [ "${KILN_PORTABLE:-0}" != 1 ] && [ "$(uname -m)" = x86_64 ] \
  && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw f16c /proc/cpuinfo; then
  KILN_SWIFT_FLAGS+=(-Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=haswell)
fi

kiln_build() {
  swift build "${KILN_SWIFT_FLAGS[@]}" "$@"
}
