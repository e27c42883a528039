#!/usr/bin/env bash
# Installs what Kiln needs, builds it (release) and renders the showcase: out/showcase.mp4.
source "$(dirname "$0")/common.sh"
bash scripts/install-deps.sh
kiln_build --product kiln
mkdir -p out
"$(swift build "${KILN_SWIFT_FLAGS[@]}" --show-bin-path)/kiln" render jobs/showcase.json -o out/showcase.mp4 "$@"
