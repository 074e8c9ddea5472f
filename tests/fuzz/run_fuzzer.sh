#!/usr/bin/env bash
# Runs one libFuzzer target on its seed corpus (tests/fuzz/README.md).
#   run_fuzzer.sh [--fresh] BINARY SEED_DIR WORK_DIR [libFuzzer flags...]
# New inputs go to WORK_DIR/corpus (the checked-in seeds are never written), crash reproducers to
# WORK_DIR/artifacts. --fresh empties WORK_DIR first, so a run with -seed=N -runs=M sees the same
# inputs every time (the smoke runs); without it a long run resumes from the corpus it grew.
set -euo pipefail
fresh=0
if [[ "${1:-}" == "--fresh" ]]; then fresh=1; shift; fi
if [[ $# -lt 3 ]]; then
  echo "usage: $0 [--fresh] BINARY SEED_DIR WORK_DIR [libFuzzer flags...]" >&2
  exit 2
fi
binary=$1 seeds=$2 work=$3
shift 3
[[ -x "$binary" ]] || { echo "$0: fuzz target '$binary' is not built" >&2; exit 2; }
[[ -d "$seeds" ]] || { echo "$0: seed corpus '$seeds' is not a directory" >&2; exit 2; }
if [[ $fresh == 1 ]]; then rm -rf "$work"; fi
mkdir -p "$work/corpus" "$work/artifacts"
# Every ASan/UBSan finding, leaks included, stops the run; the one suppression (a leak inside
# LibTorch's zip reader on damaged archives) is explained in lsan.supp.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(dirname "$0")/lsan.supp:print_suppressions=0}"
exec "$binary" -max_len=4096 -timeout=20 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$seeds"
