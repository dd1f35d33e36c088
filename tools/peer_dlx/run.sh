#!/bin/sh
# Side-by-side peer figures for the Performance table: times the DLX solver that tdoku's
# benchmark ships (fast_solv_9r2, Ignacio Zelaya; BSD licence) on the same puzzle files as
# `cargo bench --bench dlx`, count to 2 and first solution, one thread.
#
# Usage: tools/peer_dlx/run.sh TDOKU_GIT_DIR [SECONDS]
#   TDOKU_GIT_DIR: a clone (or bare mirror) of github.com/t-dillon/tdoku. The peer source is
#   compiled from it into a temporary directory; none of it is part of this repository.
set -eu
tdoku=${1:?usage: run.sh TDOKU_GIT_DIR [SECONDS]}
seconds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
peers=$here/../../../shared/peers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git --git-dir="$tdoku" show HEAD:other/fast_solv_9r2/fast_solv_9r2.c > "$work/peer.c" 2>/dev/null ||
    git -C "$tdoku" show HEAD:other/fast_solv_9r2/fast_solv_9r2.c > "$work/peer.c"
${CC:-gcc} -O3 -march=native -w -o "$work/peer" "$work/peer.c" "$here/driver.c"
head -1000 "$peers/royle_17clue/puzzles.txt" > "$work/17clue_1000.txt"
head -200 "$peers/forum_hardest_1905_11plus/puzzles.txt" > "$work/hardest_1905_200.txt"
for set in 17clue_1000 hardest_1905_200; do
    for limit in 2 1; do
        printf '%s limit %s: ' "$set" "$limit"
        "$work/peer" "$work/$set.txt" 1000 "$limit" "$seconds"
    done
done
