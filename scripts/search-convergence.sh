#!/usr/bin/env bash
# Draws docs/images/search-convergence.svg: the search strategies replayed on a committed space
# measured whole (`convlab search RESULTS --trace`), the median over the seeds of the best time so
# far (as a ratio to the space's best) against the variants measured, one line per strategy, with
# lines 5 % and 1 % above the space's best. Needs gnuplot.
#
#   scripts/search-convergence.sh [--convlab PATH] [--results DIR] [--seeds N] [--out FILE]
#
# Defaults: build/convlab, outputs/search_grid, 100 seeds, docs/images/search-convergence.svg
# (paths relative to the source tree); an --out ending in .png draws a PNG. The space must hold
# one problem.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
convlab=$root/build/convlab
results=$root/outputs/search_grid
seeds=100
out=$root/docs/images/search-convergence.svg
while [ $# -gt 0 ]; do
  case $1 in
    --convlab) convlab=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "search-convergence.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
command -v gnuplot >/dev/null || { echo "search-convergence.sh: gnuplot is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table=$("$convlab" search "$results" --seeds "$seeds" --trace "$work/trace.tsv")
problems=$(cut -f1 "$work/trace.tsv" | tail -n +2 | sort -u | wc -l)
if [ "$problems" -ne 1 ]; then
  echo "search-convergence.sh: $results holds $problems problems; the figure draws one" >&2
  exit 2
fi
best=$(printf '%s\n' "$table" | sed -n 's/.*, the best \([0-9.]*\) ms.*/\1/p' | head -n 1)
measured=$(printf '%s\n' "$table" | sed -n 's/.*each search measuring up to \([0-9]*\).*/\1/p' | head -n 1)
space=$(printf '%s\n' "$table" | sed -n 's/^\([0-9]*\) variants (.*/\1/p' | head -n 1)
title=$(printf '%s\n' "$table" | sed -n 's/^## //p' | head -n 1)

# Per strategy and step, the median of the seeds' best so far (a step before any variant ran
# counts as slower than every time; a median there is left out).
tail -n +2 "$work/trace.tsv" |
  awk -F'\t' -v OFS='\t' '{ print $2, $4, ($5 == "NaN" ? 1e300 : $5) }' |
  sort -t "$(printf '\t')" -k1,1 -k2,2n -k3,3g |
  awk -F'\t' -v OFS='\t' '
    function flush() {
      if (n == 0) return
      m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      if (m < 1e299) print strategy, step, m > (dir "/" strategy ".tsv")
      n = 0
    }
    $1 != strategy || $2 != step { flush(); strategy = $1; step = $2 }
    { v[++n] = $3 }
    END { flush() }' dir="$work"

plots=""
for strategy in $(tail -n +2 "$work/trace.tsv" | cut -f2 | awk '!seen[$0]++'); do
  [ -s "$work/$strategy.tsv" ] || continue
  seeds_of=$([ "$strategy" = grid ] && echo 1 || echo "$seeds")
  label="$strategy (median of $seeds_of seed$([ "$seeds_of" = 1 ] || echo s))"
  [ "$strategy" = grid ] && label="grid (in the config's order)"
  plots+="${plots:+, }'$work/$strategy.tsv' using 2:(\$3 / $best) with steps lw 2 title \"$label\""
done

terminal="svg size 820,480 dynamic font 'sans,12' background '#ffffff'"
case $out in *.png) terminal="pngcairo size 1230,720 font 'sans,16'" ;; esac
mkdir -p "$(dirname "$out")"
gnuplot <<EOF
set terminal $terminal
set output '$out'
set title "Best so far against variants measured, replayed on the $space-variant space\n{/*0.8 $title}"
set xlabel 'variants measured'
set ylabel 'best so far / the best (kernel median)'
set logscale x
set xrange [1:$measured]
set yrange [0.99:1.6]
set key top right opaque box lc rgb '#cccccc'
set grid xtics ytics lc rgb '#dddddd'
set arrow from 1, 1.05 to $measured, 1.05 nohead dt 2 lc rgb '#888888'
set arrow from 1, 1.01 to $measured, 1.01 nohead dt 3 lc rgb '#888888'
set label 'the best + 5 %' at 1.05, 1.05 offset 0, 0.6 font ',10' tc rgb '#666666'
set label 'the best + 1 %' at 1.05, 1.01 offset 0, 0.6 font ',10' tc rgb '#666666'
plot $plots, 1 with lines dt 1 lc rgb '#000000' title 'the best ($best ms)'
EOF
echo "wrote $out"
