#!/usr/bin/env bash
# Exports one experiment's results for the report, its stale figures drawn.
# Usage: scripts/report/export-experiment.sh CONVLAB RESULTS_DIR
#   RESULTS_DIR is outputs/<name>; its discussion is experiments/<name>.md when that exists, and
#   figures:/tables: come from the config the run recorded when it still exists (so edited
#   declarations apply without re-running), else from the copy inside results.json.
set -euo pipefail

convlab=${1:?usage: $0 CONVLAB RESULTS_DIR}
dir=${2:?usage: $0 CONVLAB RESULTS_DIR}
name=$(basename "$dir")

args=("$dir" --config auto)
[[ -e "experiments/$name.md" ]] && args+=(--discussion "experiments/$name.md")
# The export draws the stale figures with gnuplot. Status 1: everything is written, but gnuplot
# could not draw some figures; the section shows an error box in each one's place, and the report's
# build ends with a message naming them ($dir/export/not-drawn.txt).
status=0
"$convlab" export "${args[@]}" || status=$?
[[ $status -eq 0 || $status -eq 1 ]] || exit "$status"
