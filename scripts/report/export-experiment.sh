#!/usr/bin/env bash
# Exports one experiment's results for the report and renders its stale figures.
# Usage: scripts/report/export-experiment.sh CONVLAB RESULTS_DIR
#   RESULTS_DIR is outputs/<name>; its discussion is experiments/<name>.md when that exists, and
#   figures:/tables: come from the config the run recorded when it still exists (so edited
#   declarations apply without re-running), else from the copy inside results.json.
set -euo pipefail

convlab=${1:?usage: $0 CONVLAB RESULTS_DIR}
dir=${2:?usage: $0 CONVLAB RESULTS_DIR}
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=$(basename "$dir")

args=("$dir" --config auto)
[[ -e "experiments/$name.md" ]] && args+=(--discussion "experiments/$name.md")
"$convlab" export "${args[@]}"
"$script_dir/render-figures.sh" "$dir/export"
