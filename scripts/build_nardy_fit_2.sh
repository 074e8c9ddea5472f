#!/bin/sh
# scripts/build_nardy_fit_2.sh — rebuilds models/nardy-fit-2.pt from models/nardy-fit-1.pt by
# rounds of "label positions with the current net's search, fit the net to the labels"
# (models/README.md, docs/results.md). Run from the repository root after a build:
#
#   scripts/build_nardy_fit_2.sh [WORK_DIR]        (default runs/nardy-fit-2)
#
# The result is WORK_DIR/fitC.pt. Every step resumes: nardy label continues a partial file, and
# a fit whose output exists is skipped (nardy fit writes its checkpoint at the end, atomically),
# so a rerun after an interruption loses at most the running step's work since its start (a
# label file: nothing but the game in progress). Label files are the same records for any
# thread count; a fit gives the same weights for the same LibTorch thread count (set per fit
# below) on one machine. About 100 minutes on a 2-core machine (the 2-ply labels take 55).
set -eu
dir=${1:-runs/nardy-fit-2}
nardy=${NARDY:-build/nardy}
mkdir -p "$dir"

label() {  # label OUT PLAYER LABELER SEED GAMES
  echo "== labels $1: $5 games of $2, targets $3"
  "$nardy" label --out "$1" --games "$5" --threads 2 --sample 0.1 --candidates 0.2 \
    --explore 0.05 --player "$2" --labeler "$3" --seed "$4" --interval 60
}
fit() {  # fit THREADS OUT INIT LR EPOCHS PATIENCE DATA...
  threads=$1 out=$2 init=$3 lr=$4 epochs=$5 patience=$6
  shift 6
  if [ -f "$out" ]; then
    echo "== $out exists"
    return
  fi
  echo "== fit $out from $init"
  OMP_NUM_THREADS=$threads "$nardy" fit --data "$@" --init "$init" --out "$out" --lr "$lr" \
    --epochs "$epochs" --patience "$patience" --batch 512 --seed 1 | tee "$out.log"
}

# Round 2: nardy-fit-1's own 1-ply values (1,099,939 positions).
label "$dir/r2.lbl" model:nardy-fit-1 model:nardy-fit-1:ply=1 3 40000
fit 2 "$dir/fitA.pt" models/nardy-fit-1.pt 1e-3 30 3 "$dir/r2.lbl"
# Round 3: fitA's own 1-ply values (1,096,750 positions); a fit, then a slower one from it.
label "$dir/r3.lbl" "net:$dir/fitA.pt" "net:$dir/fitA.pt:ply=1" 4 40000
fit 2 "$dir/fitB.pt" "$dir/fitA.pt" 1e-3 30 3 "$dir/r3.lbl"
fit 1 "$dir/fitB2.pt" "$dir/fitB.pt" 3e-4 40 4 "$dir/r3.lbl"
# Round 4: fitB2's own 2-ply values (547,706 positions).
label "$dir/r4.lbl" "net:$dir/fitB2.pt" "net:$dir/fitB2.pt:ply=2" 5 20000
fit 1 "$dir/fitC.pt" "$dir/fitB2.pt" 3e-4 40 4 "$dir/r4.lbl"
echo "== done: $dir/fitC.pt (models/nardy-fit-2.pt has the same weights)"
