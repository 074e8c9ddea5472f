#!/bin/sh
# scripts/build_nardy_fit_4.sh — rebuilds models/nardy-fit-4.pt from models/nardy-fit-3.pt: its own
# 2-ply labels, on-policy positions with random candidates and, in two more files, each sampled
# turn's 4 best results by its 0-ply values kept as one sibling group (`nardy label --top 4`);
# then nardy-fit-3 fitted to all three files with the sibling term, which scores each position's
# equity relative to its group, the part of the error a move choice sees (`nardy fit
# --sibling-weight`; models/README.md, docs/results.md). Run from the repository
# root after a build:
#
#   scripts/build_nardy_fit_4.sh [WORK_DIR]        (default runs/nardy-fit-4)
#
# The result is WORK_DIR/fitS.pt. Every step resumes: nardy label continues a partial file, and
# a fit whose output exists is skipped. Label files are the same records for any thread count;
# a fit gives the same weights for the same LibTorch thread count (1 here) on one machine.
# About 45 minutes on a 2-core machine (2-ply labels ~13 minutes per file, the fit ~5).
set -eu
dir=${1:-runs/nardy-fit-4}
nardy=${NARDY:-build/nardy}
weight=${SIBLING_WEIGHT:-64}
mkdir -p "$dir"

label() {  # label OUT SEED GAMES OPTIONS...: games of nardy-fit-3, targets its 2-ply values
  out=$1 seed=$2 games=$3
  shift 3
  echo "== labels $out: $games games of nardy-fit-3, targets its 2-ply values"
  "$nardy" label --out "$out" --games "$games" --threads 2 --sample 0.1 --explore 0.05 \
    --player model:nardy-fit-3 --labeler model:nardy-fit-3:ply=2 --seed "$seed" --interval 60 "$@"
}

# On-policy positions and one random result on a fifth of the turns (656,095 positions; the
# round 7 of models/README.md), then the 4 best results of a tenth of the turns as sibling
# groups (406,647 and 406,652 positions).
label "$dir/r7.lbl" 9 24000 --candidates 0.2
label "$dir/t2.lbl" 11 10000 --candidates 0.1 --top 4
label "$dir/t3.lbl" 12 10000 --candidates 0.1 --top 4
if [ -f "$dir/fitS.pt" ]; then
  echo "== $dir/fitS.pt exists"
else
  echo "== fit $dir/fitS.pt from models/nardy-fit-3.pt, sibling weight $weight"
  OMP_NUM_THREADS=1 "$nardy" fit --data "$dir/r7.lbl" "$dir/t2.lbl" "$dir/t3.lbl" \
    --init models/nardy-fit-3.pt --out "$dir/fitS.pt" --sibling-weight "$weight" --lr 3e-4 \
    --lr-drops 2 --lr-drop 0.3 --epochs 40 --patience 3 --batch 512 --seed 1 | tee "$dir/fitS.pt.log"
fi
echo "== done: $dir/fitS.pt (models/nardy-fit-4.pt has the same weights)"
