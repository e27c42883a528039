#!/usr/bin/env bash
# Installs what Kiln needs, builds it (release) and renders the showcase videos:
#   out/showcase.mp4  the composition showcase (jobs/showcase.json)
#   out/podcast.mp4   the seed's podcast scene with its voice (jobs/podcast.json; the voice and
#                     the transcript's timing are made first by scripts/make-podcast.py)
#   out/symbols.mp4   animated symbols, every behaviour labelled (jobs/symbols.json)
#   out/audiogram.mp4 the podcast scene breathing with its voice, with spectrum bars
#                     (jobs/audiogram.json)
# The showcase's card pictures and the podcast's cover art are committed Kiln renders: after
# changing scripts/make-photos.py, run it (with a built kiln) to remake them.
# Extra arguments go to every `kiln render` call (e.g. --threads 2, --progress json).
source "$(dirname "$0")/common.sh"
bash scripts/install-deps.sh
python3 scripts/make-podcast.py
kiln_build --product kiln
mkdir -p out
kiln="$(swift build "${KILN_SWIFT_FLAGS[@]}" --show-bin-path)/kiln"
"$kiln" render jobs/showcase.json -o out/showcase.mp4 "$@"
"$kiln" render jobs/podcast.json -o out/podcast.mp4 "$@"
"$kiln" render jobs/symbols.json -o out/symbols.mp4 "$@"
"$kiln" render jobs/audiogram.json -o out/audiogram.mp4 "$@"
