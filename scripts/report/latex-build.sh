# Sourced by the report's builders (build-report.sh, build-experiment-report.sh): running LaTeX
# with its walls up, and the end of a build whose figures gnuplot could not all draw.

# latex_build OUTDIR JOBNAME TEMPLATE: latexmk with pdflatex on a copy of the template in OUTDIR,
# and on failure LaTeX's own error lines. pdflatex runs without shell escape, and with TeX's
# paranoid file access (openin_any and openout_any p: no absolute path, no parent folder, no dot
# file), a second wall behind the checks convlab makes of every text it writes into the report.
# Under it TeX opens the main file too only by a relative path: hence the copy, and OUTDIR must be
# relative to the current folder, where LaTeX runs and every generated path starts.
latex_build() {
  local outdir=$1 jobname=$2 template=$3
  local log="$outdir/latexmk.log" main
  mkdir -p "$outdir"
  main="$outdir/$(basename "$template")"
  cp "$template" "$main"
  if ! openin_any=p openout_any=p latexmk -pdf -pdflatex='pdflatex -no-shell-escape %O %S' \
      -interaction=nonstopmode -halt-on-error -file-line-error -outdir="$outdir" \
      -jobname="$jobname" "$main" >"$log" 2>&1; then
    grep -E -A3 '^[^ ]*:[0-9]+:|^! ' "$outdir/$jobname.log" >&2 || tail -n 40 "$log" >&2
    echo "convlab: LaTeX failed; full log in $outdir/$jobname.log" >&2
    return 1
  fi
}

# report_not_drawn PDF NOT_DRAWN_FILE...: when any of the files lists figures gnuplot could not
# draw (convlab export writes them beside each section), names them and fails: the PDF is built,
# with an error box in each one's place.
report_not_drawn() {
  local pdf=$1 file failed=0
  shift
  for file in "$@"; do
    [[ -s "$file" ]] || continue
    failed=1
    while IFS= read -r line; do echo "convlab: $(dirname "$(dirname "$file")"): $line" >&2; done <"$file"
  done
  if [[ $failed -eq 1 ]]; then
    echo "convlab: $pdf is built, but the figures above could not be drawn; an error box stands in each one's place" >&2
    return 1
  fi
}
