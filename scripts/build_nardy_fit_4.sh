#!/bin/sh
# scripts/build_nardy_fit_4.sh — nardy-fit-4's recipe, now configs/nardy-fit-4.yaml (one
# generation of `nardy train` from nardy-fit-3; resumable; the run goes to runs/nardy-fit-4).
exec "${NARDY:-build/nardy}" train --config configs/nardy-fit-4.yaml --auto-resume "$@"
