#!/bin/sh
# scripts/build_nardy_fit_5.sh — rebuilds models/nardy-fit-5.pt from models/nardy-fit-3.pt: the
# three label files of nardy-fit-4 (scripts/build_nardy_fit_4.sh, run first in the same folder)
# plus two files of sibling groups from games of diverse agents — random, heuristic, nardy-td-1
# with noise 0.1 and 0.3, the small test net with noise 0.1 (the benchmark's kinds of games,
# other seeds) and nardy-fit-3 — each game's White and Black drawn from that list
# (`nardy label --player A,B,...`); the positions stay labelled by nardy-fit-3's 2-ply. Then
# nardy-fit-3 fitted to all five files with the sibling term, as nardy-fit-4 was (models/README.md).
# Run from the repository root after a build:
#
#   scripts/build_nardy_fit_5.sh [WORK_DIR]        (default runs/nardy-fit-5)
#
# The result is WORK_DIR/fitV2.pt. Every step resumes: nardy label continues a partial file, and
# a fit whose output exists is skipped. Label files are the same records for any thread count;
# a fit gives the same weights for the same LibTorch thread count (2 here) on one machine.
# About 80 minutes on a 2-core machine (nardy-fit-4's ~50, then ~12 per diverse file and the
# fit ~6).
set -eu
dir=${1:-runs/nardy-fit-5}
nardy=${NARDY:-build/nardy}
NARDY=$nardy scripts/build_nardy_fit_4.sh "$dir"
agents=random,heuristic,model:nardy-td-1:noise=0.1,model:nardy-td-1:noise=0.3
agents=$agents,net:tests/data/search_net.pt:noise=0.1,model:nardy-fit-3

for seed in 21 22; do  # v1 and v2 (402,180 and 401,867 positions)
  out=$dir/v$((seed - 20)).lbl
  echo "== labels $out: 10000 games of diverse agents, targets nardy-fit-3's 2-ply values"
  "$nardy" label --out "$out" --games 10000 --threads 2 --sample 0.1 --explore 0.05 \
    --player "$agents" --labeler model:nardy-fit-3:ply=2 --seed "$seed" --interval 60 \
    --candidates 0.1 --top 4
done
if [ -f "$dir/fitV2.pt" ]; then
  echo "== $dir/fitV2.pt exists"
else
  echo "== fit $dir/fitV2.pt from models/nardy-fit-3.pt, sibling weight 64"
  OMP_NUM_THREADS=2 "$nardy" fit --data "$dir/r7.lbl" "$dir/t2.lbl" "$dir/t3.lbl" \
    "$dir/v1.lbl" "$dir/v2.lbl" --init models/nardy-fit-3.pt --out "$dir/fitV2.pt" \
    --sibling-weight 64 --lr 3e-4 --lr-drops 2 --lr-drop 0.3 --epochs 40 --patience 3 \
    --batch 512 --seed 1 | tee "$dir/fitV2.pt.log"
fi
echo "== done: $dir/fitV2.pt (models/nardy-fit-5.pt has the same weights)"
