#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Sources/kiln-fuzz) with AddressSanitizer and runs each target for
# a bounded time, two at a time (one per core), from its seed corpus under Tests/Fuzz/Corpus/.
#   scripts/fuzz.sh [seconds-per-target] [target...]     default 60 s, every target
# Exits non-zero if any target crashes, leaks memory past the RSS limit or times out on one input;
# the input that did it is left under .build/fuzz/findings/<target>/. Make it a regression test
# (docs/security.md, "Fuzzing and sanitizers") before fixing it.
source "$(dirname "$0")/common.sh"

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(job transcript-json transcript-srt transcript-vtt cron image-header audio-header symbol)

# The toolchain ships libFuzzer and the sanitizer runtimes (lib/clang/*/lib/linux); only the C
# libraries the package links are needed, as for any build.
bash scripts/install-deps.sh
scratch=.build/fuzz
echo "== build kiln-fuzz (libFuzzer + AddressSanitizer)"
# -parse-as-library: the harness has no main of its own; -D KILN_LIBFUZZER leaves the replayer's out.
swift build -c release --product kiln-fuzz --scratch-path "$scratch" -Xswiftc -warnings-as-errors \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -D -Xswiftc KILN_LIBFUZZER
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/kiln-fuzz"

# Swift's crash backtracer would spend tens of seconds symbolicating each crash; ASan reports it.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"

run_target() {
  local target="$1" findings="$scratch/findings/$1" work="$scratch/corpus/$1"
  rm -rf "$findings" && mkdir -p "$findings" "$work"
  # A dictionary of the format's words, where there is one, lets mutations build valid structure.
  local dictionary=()
  [ -f "Tests/Fuzz/$target.dict" ] && dictionary=(-dict="Tests/Fuzz/$target.dict")
  # New inputs go to a scratch corpus; the checked-in seeds and past findings are read only.
  local seeds=("Tests/Fuzz/Corpus/$target")
  [ -d "Tests/Fuzz/Crashes/$target" ] && seeds+=("Tests/Fuzz/Crashes/$target")
  # One allocation over 2 GiB is a finding (a size taken from the input unchecked); the process
  # as a whole may grow further, since ASan's quarantine and FFmpeg's buffer pools reached
  # 1.8 GB in a 60 s run of audio-header without a leak (LeakSanitizer finds none).
  KILN_FUZZ_TARGET="$target" "$binary" "$work" "${seeds[@]}" \
    -max_total_time="$seconds" -max_len=65536 -malloc_limit_mb=2048 -rss_limit_mb=4096 -timeout=10 \
    -artifact_prefix="$findings/" -print_final_stats=1 "${dictionary[@]}" </dev/null >"$scratch/$target.log" 2>&1
}

mkdir -p "$scratch"
failed=()
# Two at a time: the CI machine has two cores.
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for target in "${targets[@]:i:2}"; do
    echo "== fuzz $target for ${seconds} s"
    run_target "$target" &
    pids+=("$!:$target")
  done
  for entry in "${pids[@]}"; do
    target="${entry#*:}"
    if wait "${entry%%:*}"; then
      grep -E "^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb" "$scratch/$target.log" \
        | sed "s/^/   $target: /" || true
    else
      failed+=("$target")
      echo "== fuzz $target FAILED: see $scratch/$target.log and $scratch/findings/$target/" >&2
      grep -E "ERROR|Fatal error|==[0-9]+==|SUMMARY|Test unit written" "$scratch/$target.log" | head -20 >&2
    fi
  done
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz: crashes in ${failed[*]}" >&2; exit 1; }
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, no crash"
