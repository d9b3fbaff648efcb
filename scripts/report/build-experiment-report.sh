#!/usr/bin/env bash
# Builds the report of one experiment alone: RESULTS_DIR/report.pdf (outputs/<name>/report.pdf)
# with its title, run, figures, tables, discussion, machines, verification and config, and the
# section of its history across commits when outputs/history_<name> holds one.
# Usage: scripts/report/build-experiment-report.sh CONVLAB RESULTS_DIR
# Runs in the current directory, which holds outputs/ and experiments/; the LaTeX template comes
# from the report/ folder next to this script. Exports are incremental, as for the project report.
set -euo pipefail

convlab=${1:?usage: $0 CONVLAB RESULTS_DIR}
dir=${2:?usage: $0 CONVLAB RESULTS_DIR}
dir=${dir%/}
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
template_dir=$(cd "$script_dir/../../report" && pwd)

for tool in gnuplot latexmk pdflatex; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "convlab: $tool not found; run scripts/install-deps.sh report" >&2
    exit 1
  }
done
[[ -e "$dir/results.json" ]] || { echo "convlab: no $dir/results.json" >&2; exit 2; }

"$convlab" gallery "$dir"
"$script_dir/export-experiment.sh" "$convlab" "$dir"
document_dir="$dir/export/document"
mkdir -p "$document_dir"
# The experiment's history across commits (convlab history run), when there is one: a section
# after the gallery.
history_dir="$(dirname "$dir")/history_$(basename "$dir")"
history_args=()
if [[ -e "$history_dir/history.json" ]]; then
  "$convlab" export "$history_dir"
  "$script_dir/render-figures.sh" "$history_dir/export"
  history_args=(--history-section "$history_dir/export/section.tex")
fi
"$convlab" export --document "$document_dir/experiment-document.tex" \
  ${history_args[@]+"${history_args[@]}"} "$dir"

# The revision the PDF is built from, for its title.
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
if [[ -z "$commit" ]]; then
  commit="an unknown revision (not a git checkout)"
elif [[ -n "$(git status --porcelain --untracked-files=no -- . ':!outputs' 2>/dev/null)" ]]; then
  commit="$commit with uncommitted changes"
fi
printf '\\newcommand{\\convlabbuildcommit}{%s}\n' "$commit" > "$document_dir/experiment-build.tex"

# The experiment's generated files first on TEXINPUTS, then the template's macros; \input paths
# in the generated files are relative to here.
export TEXINPUTS="$document_dir//:$template_dir//:${TEXINPUTS:-}"
log="$document_dir/latexmk.log"
if ! latexmk -pdf -interaction=nonstopmode -halt-on-error -file-line-error \
    -outdir="$document_dir/build" -jobname=report "$template_dir/experiment.tex" >"$log" 2>&1; then
  grep -E -A3 '^[^ ]*:[0-9]+:|^! ' "$document_dir/build/report.log" >&2 || tail -n 40 "$log" >&2
  echo "convlab: LaTeX failed; full log in $document_dir/build/report.log" >&2
  exit 1
fi
cp "$document_dir/build/report.pdf" "$dir/report.pdf"
echo "$dir/report.pdf: the report of $(basename "$dir") alone"
