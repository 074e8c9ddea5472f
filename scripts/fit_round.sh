#!/bin/sh
# scripts/fit_round.sh — one round of supervised improvement: play with the current net, label,
# fit, gate with a sequential test, promote. Every step is resumable: rerun the same command and
# it continues where it stopped (nardy label appends; a step whose output exists is skipped).
#
#   scripts/fit_round.sh ROUND_DIR CURRENT.pt [GAMES]
#
# Environment (defaults in brackets):
#   NARDY      the nardy binary [build/nardy]
#   THREADS    worker threads [2]
#   SEED       seed of the games and the fit [1]
#   PLY        search depth of the targets (1 or 2) [1]
#   SAMPLE     probability of keeping a position [0.25]
#   EXPLORE    probability of a random move [0.05]
#   LR         Adam learning rate [3e-4]
#   EPOCHS     most epochs [10]
#   GATE_GAMES most games of the gate [20000]
#   SPRT       ELO0,ELO1 of the gate [0,5]
# Steps and files in ROUND_DIR:
#   1. labels.lbl  nardy label: GAMES self-play games of net:CURRENT, each kept position labelled
#                  by net:CURRENT:ply=PLY
#   2. fitted.pt   nardy fit --init CURRENT (held-out split, early stopping); fit.log
#   3. gate.json   nardy eval net:fitted.pt net:CURRENT --sprt SPRT (mirrored games; stops at a
#                  verdict or after GATE_GAMES)
#   4. next.pt     fitted.pt if the gate accepted H1 (the fitted net is better by >= ELO1 at the
#                  test's error rates), else a copy of CURRENT: the next round's CURRENT
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUND_DIR CURRENT.pt [GAMES]" >&2
  exit 2
fi
dir=$1
current=$2
games=${3:-20000}
nardy=${NARDY:-build/nardy}
threads=${THREADS:-2}
seed=${SEED:-1}
ply=${PLY:-1}
[ -f "$current" ] || { echo "$0: no checkpoint '$current'" >&2; exit 2; }
mkdir -p "$dir"

echo "== 1. label ($games games, targets net:$current:ply=$ply)"
"$nardy" label --out "$dir/labels.lbl" --games "$games" --threads "$threads" --seed "$seed" \
  --player "net:$current" --labeler "net:$current:ply=$ply" \
  --sample "${SAMPLE:-0.25}" --explore "${EXPLORE:-0.05}" --interval 60

echo "== 2. fit"
if [ ! -f "$dir/fitted.pt" ]; then
  "$nardy" fit --data "$dir/labels.lbl" --init "$current" --out "$dir/fitted.pt" \
    --lr "${LR:-3e-4}" --epochs "${EPOCHS:-10}" --patience 2 --seed "$seed" | tee "$dir/fit.log"
else
  echo "$dir/fitted.pt exists"
fi

echo "== 3. gate"
if [ ! -f "$dir/gate.json" ]; then
  "$nardy" eval "net:$dir/fitted.pt" "net:$current" --games "${GATE_GAMES:-20000}" \
    --threads "$threads" --seed "$seed" --sprt "${SPRT:-0,5}" --json "$dir/gate.json.tmp"
  mv "$dir/gate.json.tmp" "$dir/gate.json"
else
  echo "$dir/gate.json exists"
fi

echo "== 4. promote"
verdict=$(sed -n 's/.*"verdict": *"\([^"]*\)".*/\1/p' "$dir/gate.json")
if [ "$verdict" = "H1" ]; then
  cp "$dir/fitted.pt" "$dir/next.pt"
  echo "promoted: $dir/next.pt is the fitted net (gate verdict H1)"
else
  cp "$current" "$dir/next.pt"
  echo "kept: $dir/next.pt is $current (gate verdict ${verdict:-none})"
fi
