#!/usr/bin/env bash
# Builds report/report.pdf from every experiment that has results.
# Usage: scripts/report/build-report.sh [--no-export] CONVLAB [RESULTS_DIR...]
#   --no-export  the experiments are exported already (report/report.mk did it per experiment)
#   CONVLAB      the convlab executable
#   RESULTS_DIR  outputs/<name> directories (default: every outputs/*/ holding a results.json)
# Runs in the current directory, which holds outputs/, experiments/ and receives report/; the
# LaTeX template comes from the report/ folder next to this script. Exports are incremental:
# unchanged data keeps its files, and only stale figures are drawn again. Exit 1 when a figure
# could not be drawn: the PDF is built with an error box in its place, and the message names it.
set -euo pipefail

export_first=1
if [[ "${1:-}" == "--no-export" ]]; then
  export_first=0
  shift
fi
convlab=${1:?usage: $0 [--no-export] CONVLAB [RESULTS_DIR...]}
shift
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
template_dir=$(cd "$script_dir/../../report" && pwd)
# shellcheck source=latex-build.sh
source "$script_dir/latex-build.sh"

for tool in gnuplot latexmk pdflatex; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "convlab: $tool not found; run scripts/install-deps.sh report" >&2
    exit 1
  }
done

results_dirs=("$@")
if [[ ${#results_dirs[@]} -eq 0 ]]; then
  for file in outputs/*/results.json; do
    [[ -e "$file" ]] && results_dirs+=("$(dirname "$file")")
  done
fi

if [[ $export_first -eq 1 ]]; then
  for dir in "${results_dirs[@]+"${results_dirs[@]}"}"; do
    "$script_dir/export-experiment.sh" "$convlab" "$dir"
  done
fi

mkdir -p report/generated report/build
if [[ ${#results_dirs[@]} -eq 0 ]]; then
  echo "convlab: no experiment has results yet (outputs/*/results.json); the report says so" >&2
  printf '%s\n' '\section{No results yet}' \
    'Run an experiment (\texttt{make experiment CONFIG=configs/...}) and build the report again.' \
    > report/generated/index.tex
else
  index_args=(--index report/generated/index.tex)
  [[ -e "$template_dir/outline.yaml" ]] && index_args+=(--outline "$template_dir/outline.yaml")
  [[ -e "$template_dir/summary.tex" ]] && index_args+=(--summary "$template_dir/summary.tex")
  # Status 1: written, but gnuplot could not draw some summary figures (named at the end).
  status=0
  "$convlab" export "${index_args[@]}" "${results_dirs[@]}" || status=$?
  [[ $status -eq 0 || $status -eq 1 ]] || exit "$status"
fi

# The revision the PDF is built from, for its title page.
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
if [[ -z "$commit" ]]; then
  commit="an unknown revision (not a git checkout)"
elif [[ -n "$(git status --porcelain --untracked-files=no -- . ':!outputs' 2>/dev/null)" ]]; then
  commit="$commit with uncommitted changes"
fi
printf '\\newcommand{\\convlabbuildcommit}{%s}\n' "$commit" > report/generated/build.tex

# TEXINPUTS finds the template's macros; \input paths in the generated files are relative to here.
export TEXINPUTS="$template_dir//:${TEXINPUTS:-}"
latex_build report/build report "$template_dir/report.tex" || exit 1
cp report/build/report.pdf report/report.pdf
echo "report/report.pdf: ${#results_dirs[@]} experiments"
not_drawn=(report/generated/export/not-drawn.txt)
for dir in "${results_dirs[@]+"${results_dirs[@]}"}"; do not_drawn+=("$dir/export/not-drawn.txt"); done
report_not_drawn report/report.pdf "${not_drawn[@]}"
