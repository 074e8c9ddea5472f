#!/bin/sh
# scripts/build_nardy_fit_5.sh — nardy-fit-5's recipe, now configs/nardy-fit-5.yaml (one
# generation of `nardy train` from nardy-fit-3; resumable; the run goes to runs/nardy-fit-5).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}  # the BLAS threads of the hand-run fit
exec "${NARDY:-build/nardy}" train --config configs/nardy-fit-5.yaml --auto-resume "$@"
