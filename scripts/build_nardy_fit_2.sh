#!/bin/sh
# scripts/build_nardy_fit_2.sh — nardy-fit-2's recipe, now configs/nardy-fit-2.yaml (four
# generations of `nardy train` from nardy-fit-1; resumable; the run goes to runs/nardy-fit-2).
exec "${NARDY:-build/nardy}" train --config configs/nardy-fit-2.yaml --auto-resume "$@"
