#!/bin/sh
# scripts/build_nardy_fit_5.sh — nardy-fit-5's recipe, now configs/nardy-fit-5.yaml (one
# generation of `nardy train` from nardy-fit-3; resumable; the run goes to runs/nardy-fit-5).
exec "${NARDY:-build/nardy}" train --config configs/nardy-fit-5.yaml --auto-resume "$@"
