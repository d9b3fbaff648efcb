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
# A path as a message quotes it: a line's worth, its start and its end.
shown() { if [[ ${#1} -le 200 ]]; then printf '%s' "$1"; else printf '%s...%s' "${1:0:60}" "${1: -130}"; fi; }
# LaTeX runs here and opens files by relative paths only (latex-build.sh): the folder is named from
# here.
dir=$(realpath -m --relative-to="$PWD" "$dir")
if [[ "$dir" == .. || "$dir" == ../* ]]; then
  echo "convlab: $(shown "$2") is outside the current folder; run this from the folder that holds outputs/" >&2
  exit 2
fi
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
[[ -e "$dir/results.json" ]] || { echo "convlab: no $(shown "$dir/results.json")" >&2; exit 2; }

"$convlab" gallery "$dir"
"$script_dir/export-experiment.sh" "$convlab" "$dir"
document_dir="$dir/export/document"
mkdir -p "$document_dir"
# The experiment's history across commits (convlab history run), when there is one: a section
# after the gallery.
history_dir="$(dirname "$dir")/history_$(basename "$dir")"
history_args=()
if [[ -e "$history_dir/history.json" ]]; then
  # Status 1: written, some figures not drawn (the section shows an error box in their place).
  status=0
  "$convlab" export "$history_dir" || status=$?
  [[ $status -eq 0 || $status -eq 1 ]] || exit "$status"
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
latex_build "$document_dir/build" report "$template_dir/experiment.tex" || exit 1
cp "$document_dir/build/report.pdf" "$dir/report.pdf"
echo "$dir/report.pdf: the report of $(basename "$dir") alone"
report_not_drawn "$dir/report.pdf" "$dir/export/not-drawn.txt"
