#!/usr/bin/env bash
# Behaviour unchanged, shown byte for byte: two builds of convlab, each run on the same copy of
# configs/, outputs/, experiments/ and report/, at the same path, must write the same `list`,
# `schema`, `validate` of every config, `show` and `show --best` of every experiment, its report
# export (section, tables, data, gnuplot scripts, gallery, the document of the experiment alone),
# the report's index and the notebook's pages. The builds' ids (the SHA-256 of each executable)
# are masked (in full or cut to 12 digits), and so is what differs between two runs of one build
# (mask_run_facts below); nothing else is.
#
# Usage: scripts/check-identical-output.sh BASE_BUILD NEW_BUILD [EXPERIMENT...]
#   BASE_BUILD, NEW_BUILD  build folders (holding convlab) or the executables themselves
#   EXPERIMENT             outputs/<name> folders to compare (default: every one with results)
# Exit status 0 when every file is identical, 1 when some differ (the differences are printed),
# 2 on bad arguments. KEEP=1 keeps the outputs (their folder is printed). SKIP_VALIDATE="NAME ..."
# leaves out `validate` of those configs (configs/NAME.yaml): validate compiles every variant of a
# user's kernel, and tuning_convolution's 6768 take an hour of one core; the end says so.
set -euo pipefail

usage="usage: $0 BASE_BUILD NEW_BUILD [EXPERIMENT...]"
[[ $# -ge 2 ]] || { echo "$usage" >&2; exit 2; }
executable() {
  local given=$1
  [[ -d "$given" ]] && given="$given/convlab"
  [[ -x "$given" && -f "$given" ]] || { echo "$0: $1: no convlab executable there" >&2; exit 2; }
  realpath "$given"
}
base=$(executable "$1")
new=$(executable "$2")
shift 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
experiments=("$@")
if [[ ${#experiments[@]} -eq 0 ]]; then
  for results in outputs/*/results.json; do experiments+=("$(dirname "$results")"); done
fi
for dir in "${experiments[@]}"; do
  [[ -f "$dir/results.json" ]] || { echo "$0: $dir: no results.json" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/convlab-identical.XXXXXX")
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
tree="$work/tree"

# Runs a command, its output and exit status into FILE; a non-zero status is part of the output.
capture() {
  local file=$1
  shift
  mkdir -p "$(dirname "$file")"
  local status=0
  "$@" >"$file" 2>&1 </dev/null || status=$?
  echo "exit status $status" >>"$file"
}

# Everything one build writes, under $work/<label>.
produce() {
  local convlab=$1 label=$2
  local out="$work/$label"
  rm -rf "$tree" "$work/kernel-cache"
  mkdir -p "$tree" "$out"
  cp -a configs outputs experiments report include examples data "$tree"/ 2>/dev/null || true
  (
    cd "$tree"
    export CONVLAB_KERNEL_CACHE="$work/kernel-cache"
    capture "$out/list.txt" "$convlab" list
    capture "$out/schema.txt" "$convlab" schema
    for config in configs/*.yaml; do
      [[ " ${SKIP_VALIDATE:-} " == *" $(basename "$config" .yaml) "* ]] && continue
      capture "$out/validate/$(basename "$config" .yaml).txt" "$convlab" validate "$config"
    done
    for dir in "${experiments[@]}"; do
      local name
      name=$(basename "$dir")
      capture "$out/show/$name.txt" "$convlab" show "$dir"
      capture "$out/show/$name-best.txt" "$convlab" show "$dir" --best
      capture "$out/export-log/$name-gallery.txt" "$convlab" gallery "$dir"
      capture "$out/export-log/$name.txt" "$root/scripts/report/export-experiment.sh" \
        "$convlab" "$dir"
      mkdir -p "$dir/export/document"
      capture "$out/export-log/$name-document.txt" "$convlab" export --document \
        "$dir/export/document/experiment-document.tex" "$dir"
    done
    mkdir -p report/generated
    capture "$out/export-log/index.txt" "$convlab" export --index report/generated/index.tex \
      --outline report/outline.yaml --summary report/summary.tex "${experiments[@]}"
    capture "$out/export-log/notebook.txt" "$convlab" notebook "${experiments[@]}" \
      --out notebook-pages --quiet
  )
  # What the commands wrote besides their output: exports, figures, galleries, pages, index.
  mkdir -p "$out/files/report"
  cp -a "$tree/outputs" "$tree/notebook-pages" "$out/files/"
  cp -a "$tree/report/generated" "$out/files/report/"
  # The id in full or cut (pages show its first 12 digits).
  local id
  id=$(sha256sum "$convlab" | cut -c1-12)
  { grep -rlF --null "$id" "$out" || true; } | xargs -0 -r sed -i -E "s/$id[0-9a-f]*/BUILD-ID/g"
  mask_run_facts "$out"
}

# What differs between two runs of one build too: the creation dates inside PDF figures, the time
# a compile of users' kernels took, and the notebook's stamps of its pages' inputs (a hash over
# them and the build, which is what makes a page be made again).
mask_run_facts() {
  local out=$1
  find "$out" -name '*.pdf' -print0 |
    xargs -0 -r sed -i -E 's/\/(CreationDate|ModDate) *\([^)]*\)/\/\1 (masked)/g'
  find "$out" -name '*.txt' -print0 |
    xargs -0 -r sed -i -E 's/(variants? compiled in) [0-9.]+ s/\1 (masked) s/'
  rm -rf "$out/files/notebook-pages/.build"
}

echo "base: $base"
produce "$base" base
echo "new:  $new"
produce "$new" new
rm -rf "$tree" "$work/kernel-cache"

files=$(cd "$work/base" && find . -type f | wc -l)
if diff -r "$work/base" "$work/new" >"$work/differences.txt"; then
  echo "identical: $files files (${#experiments[@]} experiments)${SKIP_VALIDATE:+; validate not run for: $SKIP_VALIDATE}"
  [[ -z "${KEEP:-}" ]] || echo "kept in $work"
  exit 0
fi
cat "$work/differences.txt"
echo "DIFFERENT: $(grep -c '^diff \|^Only in\|^Binary files' "$work/differences.txt") files differ of $files"
[[ -z "${KEEP:-}" ]] || echo "kept in $work"
exit 1
