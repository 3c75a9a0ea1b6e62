#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) and prints, per target, the executions,
# executions per second, corpus size and crashes. Exits non-zero when any target crashed.
#
#   fuzz/run.sh 30            # the CI smoke run
#   fuzz/run.sh 600 query     # ten minutes on one target
#
# cargo-fuzz needs nightly compiler flags: it uses the nightly toolchain when one is
# installed, else the stable one with RUSTC_BOOTSTRAP=1.
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json_body query route_match raw_http)

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  fuzz=(cargo +nightly fuzz)
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi

"${fuzz[@]}" build -O || exit 1

failed=0
printf '%-12s %12s %10s %8s %8s\n' target execs execs/s corpus crashes
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "artifacts/$target"
  cp -n seeds/"$target"/* "corpus/$target/" 2>/dev/null || true
  before=$(ls "artifacts/$target" | wc -l)
  log=$(mktemp)
  "${fuzz[@]}" run -O "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=1024 -max_len=65536 -timeout=10 \
    -print_final_stats=1 >"$log" 2>&1
  status=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  corpus=$(ls "corpus/$target" | wc -l)
  crashes=$(( $(ls "artifacts/$target" | wc -l) - before ))
  printf '%-12s %12s %10s %8s %8s\n' "$target" "${execs:-?}" "${rate:-?}" "$corpus" "$crashes"
  if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    failed=1
    echo "--- $target failed (exit $status); last lines of its log:"
    tail -40 "$log"
  fi
  rm -f "$log"
done
exit "$failed"
