#!/usr/bin/env bash
# How many givens `generate` leaves, and how evenly: one row per size and setting, over
# seeds 1..SEEDS (default 5), with the median and range of the givens fraction, the
# emptiest band or stack as a share of the mean givens per band, and the median time.
#
#   benches/givens.sh [BOXES...]          (default: 4 5 6 7 8 9)
#
# Settings per size: the default, and the other kind of grid (`--grid automorphic`, or at
# 25x25, where the default is an automorphic grid with 16 rounds of `--improve`,
# `--grid random --improve 0`); at 25x25 also the automorphic grid without rounds and
# both grids with `--improve 24` (IMPROVE=0 skips those, the slow rows: up to two minutes
# per seed).
# SEEDS and IMPROVE override the defaults. Needs python3 (JSON and the statistics).
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${SEEDS:-5}
improve=${IMPROVE:-24}
boxes=("$@")
[ ${#boxes[@]} -eq 0 ] && boxes=(4 5 6 7 8 9)
cargo build --release --quiet --bin shiftgrid
bin=target/release/shiftgrid

row() {
    local b=$1
    shift
    for s in $(seq 1 "$seeds"); do
        "$bin" generate --box "$b" --seed "$s" -q -f json "$@"
    done | python3 -c '
import json, statistics, sys
label = sys.argv[1]
fr, spread, secs = [], [], []
for line in sys.stdin:
    d = json.loads(line)
    g = d["cells"]; n = len(g); b = int(round(n ** 0.5))
    bands = [sum(1 for r in range(k * b, k * b + b) for c in range(n) if g[r][c]) for k in range(b)]
    stacks = [sum(1 for c in range(k * b, k * b + b) for r in range(n) if g[r][c]) for k in range(b)]
    fr.append(100 * d["givens"] / n / n)
    spread.append(100 * min(bands + stacks) * b / d["givens"])
    secs.append(d["micros"] / 1e6)
print(f"| {label} | {statistics.median(fr):.1f}% ({min(fr):.1f}-{max(fr):.1f}) "
      f"| {min(spread):.0f}-{max(spread):.0f}% | {statistics.median(secs):.2f} s "
      f"({min(secs):.2f}-{max(secs):.2f}) |")
' "$(( b * b ))x$(( b * b )) ${*:-default}"
}

echo "| size, settings | givens: median (range) | emptiest band or stack | time: median (range) |"
echo "|---|---|---|---|"
for b in "${boxes[@]}"; do
    row "$b"
    if [ "$b" = 5 ]; then
        row "$b" --grid random --improve 0
        row "$b" --improve 0
        if [ "$improve" != 0 ]; then
            row "$b" --grid random --improve "$improve"
            row "$b" --improve "$improve"
        fi
    else
        row "$b" --grid automorphic
    fi
done
