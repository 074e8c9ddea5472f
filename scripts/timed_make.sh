#!/usr/bin/env bash
# Runs the given make targets in order, timing each, and prints a summary of every stage's wall
# time at the end, also when a stage fails (the run stops at the first failing stage).
# Usage: scripts/timed_make.sh TARGET... (MAKE may name the make to call).
set -u
make_cmd=${MAKE:-make}
names=() secs=() status=0
for target in "$@"; do
  start=$(date +%s)
  "$make_cmd" --no-print-directory "$target"
  rc=$?
  names+=("$target") secs+=($(( $(date +%s) - start )))
  if [ $rc -ne 0 ]; then status=$rc; break; fi
done
echo
echo "== stage wall times"
total=0
for i in "${!names[@]}"; do
  printf '  %-16s %5d s\n' "${names[$i]}" "${secs[$i]}"
  total=$(( total + secs[i] ))
done
printf '  %-16s %5d s\n' total "$total"
if [ $status -ne 0 ]; then echo "== stage ${names[-1]} failed (exit $status)"; fi
exit $status
