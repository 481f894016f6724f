#!/usr/bin/env bash
# Runs every libFuzzer target (or those named) for a set time each, one after the
# other, and prints executions per second and totals.
#
#   scripts/fuzz.sh                 # 20 s per target (the short pass)
#   scripts/fuzz.sh 600             # 10 minutes per target (the long pass)
#   scripts/fuzz.sh 3600 extract    # one target, one hour
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). It works on stable Rust: cargo-fuzz
# asks for nightly-only flags, which RUSTC_BOOTSTRAP=1 allows, and `-s none` leaves
# out AddressSanitizer (nightly-only; the core is safe Rust, so what ASan would find
# shows up as a panic anyway). Coverage instrumentation (sancov) and debug assertions
# and overflow checks (fuzz/Cargo.toml) stay on.
#
# Working corpora grow under fuzz/work/<target> (ignored by git), seeded from the
# committed fuzz/corpus/<target>. A crash is copied to fuzz/regressions/<target>/,
# which `cargo test` (tests/fuzz_checks.rs) replays forever after: commit it.
set -euo pipefail

seconds="${1:-20}"
shift || true
all=(sanitize segment extract messages filter tokens)
targets=("${@:-${all[@]}}")
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"

export RUSTC_BOOTSTRAP=1
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"

for t in "${targets[@]}"; do
  cargo fuzz build -s none "$t"
done

status=0
printf '\n%-10s %8s %12s %10s %8s  %s\n' target seconds executions 'execs/s' corpus result
for t in "${targets[@]}"; do
  mkdir -p "work/$t" "corpus/$t" "artifacts/$t"
  log="work/$t.log"
  started=$SECONDS
  set +e
  cargo fuzz run -s none "$t" "work/$t" "corpus/$t" -- \
    -max_total_time="$seconds" -max_len=8192 -timeout=30 -rss_limit_mb=4096 \
    -print_final_stats=1 >"$log" 2>&1
  code=$?
  set -e
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  # Fuzzing time as libFuzzer reports it (not the build before it), else the wall clock.
  took=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | grep -oE 'in [0-9]+' | grep -oE '[0-9]+' || true)
  took=${took:-$((SECONDS - started))}
  if [ "$runs" = 0 ]; then
    # Stopped by a finding: the last status line has the count.
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || echo 0)
  fi
  corpus=$(find "work/$t" -type f | wc -l)
  result=ok
  if [ "$code" -ne 0 ]; then
    result="FAILED (see fuzz/$log)"
    status=1
    mkdir -p "regressions/$t"
    for a in artifacts/"$t"/*; do
      if [ -f "$a" ] && [ ! -f "regressions/$t/$(basename "$a")" ]; then
        cp "$a" "regressions/$t/" && result="$result; saved regressions/$t/$(basename "$a")"
      fi
    done
  fi
  rate=$(( took > 0 ? runs / took : runs ))
  printf '%-10s %8s %12s %10s %8s  %s\n' "$t" "$took" "$runs" "$rate" "$corpus" "$result"
done
exit $status
