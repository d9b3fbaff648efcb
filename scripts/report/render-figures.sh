#!/usr/bin/env bash
# Renders the figures `convlab export` scripted for one experiment, and only the stale ones: a
# figure is redrawn when its PDF or PNG is missing or older than its gnuplot script or data.
# Usage: scripts/report/render-figures.sh EXPORT_DIR   (e.g. outputs/<name>/export)
set -euo pipefail

export_dir=${1:?usage: $0 EXPORT_DIR}
plots_dir="$export_dir/plots"
[[ -d "$plots_dir" ]] || exit 0
command -v gnuplot >/dev/null 2>&1 || {
  echo "convlab: gnuplot not found; run scripts/install-deps.sh report" >&2
  exit 1
}

# The outputs a script writes are on its `set output` lines, relative to the plots directory, in
# gnuplot's single quotes (a quote in the name written twice).
outputs_of() { sed -n "s/^set output '\(.*\)'$/\1/p" "$1" | sed "s/''/'/g"; }

rendered=0
figures=()   # every figure's PNG, where it was written (or already is)
for script in "$plots_dir"/*.gp; do
  [[ -e "$script" ]] || continue
  name=$(basename "$script" .gp)
  while IFS= read -r output; do
    [[ "$output" == *.png ]] && figures+=("$(realpath -m --relative-to="$PWD" "$plots_dir/$output")")
  done < <(outputs_of "$script")
  inputs=("$script" "$export_dir"/data/"$name".tsv "$export_dir"/data/"$name"--panel*.tsv)
  stale=0
  while IFS= read -r output; do
    target="$plots_dir/$output"
    if [[ ! -e "$target" ]]; then stale=1; break; fi
    for input in "${inputs[@]}"; do
      if [[ -e "$input" && "$input" -nt "$target" ]]; then stale=1; break 2; fi
    done
  done < <(outputs_of "$script")
  [[ $stale -eq 1 ]] || continue
  while IFS= read -r output; do mkdir -p "$(dirname "$plots_dir/$output")"; done < <(outputs_of "$script")
  # A UTF-8 locale whatever the user's: the scripts `set encoding utf8`, and in a locale that is not
  # UTF-8 (none set at all is C) gnuplot warns "iconv failed to convert degree sign" for each one.
  # C.UTF-8 is built into glibc; convlab notebook runs gnuplot the same way.
  if ! (cd "$plots_dir" && LC_ALL=C.UTF-8 gnuplot "$name.gp"); then
    echo "convlab: gnuplot failed on $script" >&2
    exit 1
  fi
  rendered=$((rendered + 1))
done
# Where the figures are: the folder, and each figure's PNG (its PDF lies beside it).
if [[ ${#figures[@]} -eq 0 ]]; then
  echo "$export_dir: no figures declared"
  exit 0
fi
folder=$(dirname "${figures[0]}")
noun=figures; [[ ${#figures[@]} -eq 1 ]] && noun=figure
if [[ $rendered -eq 0 ]]; then state="up to date"
elif [[ $rendered -eq ${#figures[@]} ]]; then state="drawn now"
else state="$rendered drawn now, the others up to date"; fi
echo "convlab: ${#figures[@]} $noun in $folder/ ($state):"
for figure in "${figures[@]}"; do echo "  $figure (and .pdf)"; done
