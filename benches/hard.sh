#!/usr/bin/env bash
# Hard instances side by side: the CDCL engine (examples/learn_count) against CaDiCaL 1.9.5
# through PySAT (../shared/tools/sat_peer.py), on the same files in one run.
#
#   benches/hard.sh [frisch] [holes] [SECS]
#
# frisch: Alain Frisch's sixteen minimal 25x25 puzzles, grids/frisch_25x25.txt (puzzle k is
#         instance 17+k of Gecode's examples; ../shared/peers/frisch_25x25_sample holds 1, 3,
#         5 and 7 of them, as #18, #20, #22, #24).
# holes:  partial rosters, `shiftgrid fill --box B --seed S --count 5 -f line | holes.py - H S`
#         for B in 5 6 7 and H in 0.5 0.55 0.6 0.65 0.7 (5 puzzles per row, S = 1).
#         BOXES, HOLES, PER and SEED (S) override these.
# Both engines count to 2 (solve, block, solve); each puzzle is cut at SECS (default 60).
# The `auto` column is what a user runs, `shiftgrid count --limit 2` (the default portfolio,
# both cores), timed per puzzle with the same cut.
# Needs `pip install python-sat`. Prints one table row per puzzle, ratio = auto / CaDiCaL
# (timeouts count as SECS), and the median and largest ratios of auto and of the learner alone.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
secs=60
sets=()
for a in "$@"; do
    case $a in
        frisch|holes) sets+=("$a") ;;
        *) secs=$a ;;
    esac
done
[ ${#sets[@]} -eq 0 ] && sets=(frisch holes)
boxes=${BOXES:-"5 6 7"}
holes=${HOLES:-"0.5 0.55 0.6 0.65 0.7"}
per=${PER:-5}
seed=${SEED:-1}

cargo build --release --quiet --bin shiftgrid --example learn_count
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=()
for s in "${sets[@]}"; do
    if [ "$s" = frisch ]; then
        cp grids/frisch_25x25.txt "$work/frisch.txt"
        files+=("$work/frisch.txt")
    else
        for b in $boxes; do
            for h in $holes; do
                f="$work/holes_b${b}_h${h}.txt"
                ./target/release/shiftgrid fill --box "$b" --seed "$seed" --count "$per" -f line 2>/dev/null |
                    python3 "$shared/tools/holes.py" - "$h" "$seed" >"$f"
                files+=("$f")
            done
        done
    fi
done

printf "%-22s %3s %10s %-9s %9s %10s %-9s %7s\n" set "#" learn verdict auto cadical verdict ratio
ratios="$work/ratios"
: >"$ratios"
differ="$work/differ"
: >"$differ"
for f in "${files[@]}"; do
    name=$(basename "$f" .txt)
    ./target/release/examples/learn_count "$f" "$secs" >"$work/ours"
    : >"$work/auto"
    grep -v '^#' "$f" | grep . | while IFS= read -r line; do
        echo "$line" >"$work/one.txt"
        t0=$(date +%s.%N)
        # count exits 0 for one solution, 1 for none or several; timeout says 124.
        rc=0
        timeout "$secs" ./target/release/shiftgrid count --limit 2 -q "$work/one.txt" >/dev/null 2>&1 || rc=$?
        if [ "$rc" -le 1 ]; then
            python3 -c "print(f'{$(date +%s.%N)-$t0:.2f}')" >>"$work/auto"
        else
            echo ">$secs" >>"$work/auto"
        fi
    done
    python3 "$shared/tools/sat_peer.py" cadical195 "$f" "$secs" >"$work/peer"
    paste "$work/ours" "$work/auto" "$work/peer" | while IFS=$'\t' read -r i t v _c at _j pt pv; do
        a=${at#>}
        ratio=$(python3 -c "print(f'{max($a,0.01)/max($pt,0.01):.2f}')")
        python3 -c "print(f'{max($a,0.01)/max($pt,0.01)} {max($t,0.01)/max($pt,0.01)}')" >>"$ratios"
        # Verdicts both settled and different: one of the two is wrong (sat_peer.py's
        # blocking clause takes in variables no clause holds, which has made it say
        # `multiple` for unique generated puzzles); such rows are marked and counted.
        flag=""
        case "$v/$pv" in
            unique/multiple | multiple/unique | none/unique | none/multiple | unique/none | multiple/none)
                flag="  verdicts differ"
                echo "$name #$i: learn $v, cadical $pv" >>"$differ" ;;
        esac
        printf "%-22s %3s %9.2fs %-9s %8ss %9.2fs %-9s %6sx%s\n" "$name" "$i" "$t" "$v" "$at" "$pt" "$pv" "$ratio" "$flag"
    done
done
python3 -c "
import statistics, sys
rows = [[float(x) for x in l.split()] for l in open('$ratios')]
a, l = [r[0] for r in rows], [r[1] for r in rows]
print(f'{len(rows)} puzzles; auto/cadical: median {statistics.median(a):.2f}x, max {max(a):.2f}x; '
      f'learn/cadical: median {statistics.median(l):.2f}x, max {max(l):.2f}x (timeouts count as {$secs} s)')
"
if [ -s "$differ" ]; then
    echo "verdicts differ on $(wc -l <"$differ") puzzles (check them with ../shared/tools/verify.py):"
    cat "$differ"
fi
