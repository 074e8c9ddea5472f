#!/bin/sh
# scripts/build_nardy_fit_3.sh — nardy-fit-3's recipe, now configs/nardy-fit-3.yaml (two
# generations of `nardy train` from nardy-fit-2; resumable; the run goes to runs/nardy-fit-3).
exec "${NARDY:-build/nardy}" train --config configs/nardy-fit-3.yaml --auto-resume "$@"
