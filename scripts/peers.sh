#!/usr/bin/env bash
# Kiln against its peers, in one run (issue 14; docs/performance.md, "Against the peers"):
#   six rotated, clipped photo cards     Kiln vs Skia's raster backend (skia-python)
#   the ripple and the domain warp       Kiln vs OpenCV remap with NumPy-computed maps
#   the warp over a blurred cover        Kiln (jobs/warp.json at 1080p) vs OpenCV, its maps at
#                                        every pixel and at every 4th enlarged
#   a showcase-like scene                Kiln (jobs/showcase.json) vs the same built in MoviePy 2
# Costs are CPU time per frame pixel (ns·core/px), so "per core" holds whatever threads a side
# uses; wall times beside them. The peers are installed with pip in a virtual environment of
# their own (made once, reused), Kiln is built (release) unless KILN_BIN names a folder holding a
# release kiln and kiln-bench already.
#   bash scripts/peers.sh                  the table (Markdown)
#   bash scripts/peers.sh --json           the same as JSON
#   bash scripts/peers.sh --repeat 3       three alternated runs, medians (about 3 minutes on 2 cores)
#   bash scripts/peers.sh --only ripple,warp --frames 48
# scripts/peers/compare.py --help lists every option.
set -euo pipefail
source "$(dirname "$0")/common.sh"

venv="${KILN_PEERS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/peers-venv}"
requirements=(moviepy==2.2.1 skia-python==144.1 opencv-python-headless==5.1.0.95 numpy==2.4.6)

# `python3 -m venv` needs ensurepip, which Debian ships in python3-venv.
if ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "kiln: installing python3 python3-venv" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "kiln: making the peers' virtual environment in $venv" >&2
  python3 -m venv "$venv"
fi
if [ "$(cat "$venv/.kiln-requirements" 2>/dev/null)" != "${requirements[*]}" ]; then
  echo "kiln: installing ${requirements[*]}" >&2
  "$venv/bin/python" -m pip install -q "${requirements[@]}"
  echo "${requirements[*]}" >"$venv/.kiln-requirements"
fi

if [ -n "${KILN_BIN:-}" ]; then
  bin="$KILN_BIN"
else
  bash scripts/install-deps.sh
  kiln_build --product kiln
  kiln_build --product kiln-bench
  bin="$(swift build "${KILN_SWIFT_FLAGS[@]}" --show-bin-path)"
fi
for tool in kiln kiln-bench; do
  [ -x "$bin/$tool" ] || { echo "kiln: no $bin/$tool" >&2; exit 66; }
done

# No __pycache__ left in scripts/peers.
PYTHONDONTWRITEBYTECODE=1 exec "$venv/bin/python" scripts/peers/compare.py --bin "$bin" "$@"
