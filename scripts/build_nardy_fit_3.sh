#!/bin/sh
# scripts/build_nardy_fit_3.sh — rebuilds models/nardy-fit-3.pt from models/nardy-fit-2.pt by two
# more rounds of "label positions with a net's 2-ply search, fit the net to the labels"
# (models/README.md, docs/results.md): nardy-fit-2's 2-ply labels, fitted -> fitF;
# fitF's 2-ply labels; then nardy-fit-2 fitted to all three label files -> fitH. Run from the
# repository root after a build:
#
#   scripts/build_nardy_fit_3.sh [WORK_DIR]        (default runs/nardy-fit-3)
#
# The result is WORK_DIR/fitH.pt. Every step resumes as in scripts/build_nardy_fit_2.sh: nardy
# label continues a partial file, and a fit whose output exists is skipped. Label files are the
# same records for any thread count; a fit gives the same weights for the same LibTorch thread
# count (1 here) on one machine. About 90 minutes on a 2-core machine (2-ply labels ~20 minutes
# per 20,000 games with 2 threads, fits 2-15 minutes).
set -eu
dir=${1:-runs/nardy-fit-3}
nardy=${NARDY:-build/nardy}
mkdir -p "$dir"

label() {  # label OUT NET SEED GAMES: the games of NET at 0-ply, targets NET's 2-ply values
  echo "== labels $1: $4 games of $2, targets its 2-ply values"
  "$nardy" label --out "$1" --games "$4" --threads 2 --sample 0.1 --candidates 0.2 \
    --explore 0.05 --player "net:$2" --labeler "net:$2:ply=2" --seed "$3" --interval 60
}
fit() {  # fit OUT INIT DATA...
  out=$1 init=$2
  shift 2
  if [ -f "$out" ]; then
    echo "== $out exists"
    return
  fi
  echo "== fit $out from $init"
  OMP_NUM_THREADS=1 "$nardy" fit --data "$@" --init "$init" --out "$out" --lr 3e-4 \
    --epochs 40 --patience 4 --batch 512 --seed 1 | tee "$out.log"
}

# Round 5: nardy-fit-2's own 2-ply values of 1,096,276 positions (two label files of 20,000
# games each), fitted from nardy-fit-2 -> fitF (the next round's labeler only).
label "$dir/r5a.lbl" models/nardy-fit-2.pt 6 20000
label "$dir/r5b.lbl" models/nardy-fit-2.pt 7 20000
fit "$dir/fitF.pt" models/nardy-fit-2.pt "$dir/r5a.lbl" "$dir/r5b.lbl"
# Round 6: fitF's own 2-ply values of 656,708 positions (24,000 games); then nardy-fit-2 fitted
# to all 1,752,984 labels of rounds 5 and 6 (40 epochs, the best the last) -> fitH.
label "$dir/r6.lbl" "$dir/fitF.pt" 8 24000
fit "$dir/fitH.pt" models/nardy-fit-2.pt "$dir/r5a.lbl" "$dir/r5b.lbl" "$dir/r6.lbl"
echo "== done: $dir/fitH.pt (models/nardy-fit-3.pt has the same weights)"
