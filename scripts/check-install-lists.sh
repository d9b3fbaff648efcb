#!/usr/bin/env bash
# Checks that scripts/install-deps.sh installs everything convlab uses, from what is installed here:
#   - every LaTeX package and class the report loads (\usepackage, \RequirePackage, \documentclass
#     in report/*.tex, and in the .tex files `convlab export` writes for the
#     fixture results in tests/fixtures/report), located with kpsewhich;
#   - every header the build compiled (the compiler's dependency files in the build directory, so
#     optional parts such as OpenCV or NPP count exactly when they were built in);
#   - the programs the build, the tests (the SLURM cluster's daemons and commands among them), the
#     report and the notebook run, the KaTeX files the notebook copies next to its pages and the
#     CodeMirror files `convlab watch --serve` copies beside them;
#   - the photographs configs/*.yaml read from Debian packages.
# Each file is mapped to its Debian package with dpkg -S; that package must be in the install lists
# (scripts/install-deps.sh --list all) or in their Depends closure (apt-cache depends --recurse
# --no-recommends --no-suggests: recommendations are never installed). Files of the CUDA Toolkit
# (nvcc, CUDA runtime, NPP, NVML headers) come from NVIDIA's installer, not from Debian, and are
# reported as such.
#
# Usage: scripts/check-install-lists.sh [--build DIR] [--convlab EXE] [--without PKG]...
#                                        [--expect-gap TEXT] [--verbose]
#   --build DIR        the configured and built build directory (default: build)
#   --convlab EXE      the convlab executable (default: DIR/convlab)
#   --without PKG      check as if PKG were not in the lists (shows that the check can fail)
#   --expect-gap TEXT  invert the verdict: exit 0 only when a gap is found whose line contains TEXT
#   --verbose          print every file with its package, not only the gaps
# Exit codes: 0 complete, 1 a gap (each is printed), 2 usage, 77 cannot be checked on this machine
# (no dpkg or apt-cache, no package lists, no kpsewhich); the reason is printed.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=build
convlab=
without=()
expect_gap=
verbose=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build_dir=${2:?--build needs a directory}; shift 2 ;;
    --convlab) convlab=${2:?--convlab needs a file}; shift 2 ;;
    --without) without+=("${2:?--without needs a package}"); shift 2 ;;
    --expect-gap) expect_gap=${2:?--expect-gap needs a text}; shift 2 ;;
    --verbose) verbose=1; shift ;;
    *) echo "usage: $0 [--build DIR] [--convlab EXE] [--without PKG]... [--expect-gap TEXT] [--verbose]" >&2
       exit 2 ;;
  esac
done
build_dir=$(cd "$build_dir" && pwd)
convlab=${convlab:-$build_dir/convlab}

skip() {
  echo "skipped: $*"
  exit 77
}
for tool in dpkg-query apt-cache; do
  command -v "$tool" >/dev/null 2>&1 ||
    skip "$tool not found: not a Debian or Ubuntu machine, so the Debian install lists cannot be checked"
done
command -v kpsewhich >/dev/null 2>&1 ||
  skip "kpsewhich not found: TeX Live is not installed (scripts/install-deps.sh report installs it)"
[[ -x "$convlab" ]] || { echo "$convlab: not an executable (build convlab first)" >&2; exit 2; }

# --- the install lists and their Depends closure -------------------------------------------------
mapfile -t listed < <("$source_dir/scripts/install-deps.sh" --list all)
kept=()
for pkg in "${listed[@]}"; do
  drop=0
  for gone in "${without[@]+"${without[@]}"}"; do [[ "$pkg" == "$gone" ]] && drop=1; done
  [[ $drop -eq 1 ]] || kept+=("$pkg")
done
declare -A in_lists=() in_closure=()
for pkg in "${kept[@]}"; do in_lists[$pkg]=1; done
closure_text=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances "${kept[@]}" 2>/dev/null) ||
  skip "apt-cache knows none of the listed packages: the package lists are empty (run apt-get update)"
# Every package the recursion reached is printed unindented; virtual ones as <name>.
while IFS= read -r line; do
  [[ -z "$line" || "$line" == " "* ]] && continue
  name=${line#<}
  in_closure[${name%>}]=1
done <<<"$closure_text"

# --- what convlab uses: "kind|name|file|where" lines ---------------------------------------------
needs=()
gaps=()
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The report's LaTeX: the template, the discussions, and what export writes for the fixture.
cp -r "$source_dir/tests/fixtures/report/fixture-demo" "$scratch/fixture-demo"
"$convlab" export "$scratch/fixture-demo" \
  --discussion "$source_dir/tests/fixtures/report/experiments/fixture-demo.md" >/dev/null
"$convlab" export --index "$scratch/index.tex" "$scratch/fixture-demo" >/dev/null
tex_files=("$source_dir"/report/*.tex "$scratch/index.tex")
while IFS= read -r file; do tex_files+=("$file"); done < <(find "$scratch/fixture-demo/export" -name '*.tex')
for file in "${tex_files[@]}"; do
  [[ -e "$file" ]] || continue
  where=${file#"$source_dir"/}
  [[ "$file" == "$scratch"/* ]] && where="convlab export output ${file#"$scratch"/}"
  # \usepackage[options]{a,b} and \RequirePackage, comments stripped; \documentclass{x}.
  while IFS='|' read -r kind names; do
    IFS=',' read -ra packages <<<"$names"
    for package in "${packages[@]}"; do
      package=$(echo "$package" | tr -d '[:space:]')
      [[ -n "$package" ]] || continue
      extension=sty
      [[ "$kind" == documentclass ]] && extension=cls
      located=$(kpsewhich "$package.$extension" || true)
      if [[ -z "$located" ]]; then
        gaps+=("LaTeX $package.$extension (used in $where): not installed, so no listed package brings it")
      else
        needs+=("LaTeX|$package.$extension|$located|$where")
      fi
    done
  done < <(sed 's/\([^\\]\)%.*$/\1/; s/^%.*$//' "$file" |
           grep -oE '\\(usepackage|RequirePackage|documentclass)(\[[^]]*\])?\{[^}]*\}' |
           sed -E 's/^\\(usepackage|RequirePackage|documentclass)(\[[^]]*\])?\{([^}]*)\}$/\1|\3/; s/^RequirePackage/usepackage/')
done

# Headers: the dependency files the compiler wrote for every object of the build.
if [[ -f "$build_dir/build.ninja" ]]; then
  header_list=$(ninja -C "$build_dir" -t deps 2>/dev/null | grep -E '^ +/' || true)
else
  # shellcheck disable=SC1003  # the backslash of line continuations in depfiles
  header_list=$(find "$build_dir" -name '*.o.d' -exec cat {} + | tr '[:space:]\\' '\n' | grep '^/' || true)
fi
[[ -n "$header_list" ]] || { echo "$build_dir: no compiler dependency files; build first" >&2; exit 2; }
header_count=0
while IFS= read -r header; do
  header=$(realpath -sm "$header")
  [[ "$header" == "$source_dir"/* || "$header" == "$build_dir"/* ]] && continue
  needs+=("header|${header##*/}|$header|the build")
  header_count=$((header_count + 1))
done < <(sort -u <<<"$header_list" | sed 's/^ *//')

# Programs run by make experiment, make test (the browser tests, scripts/slurm-cluster.sh and the
# SLURM test), make report and make notebook.
for tool in g++ cmake make gnuplot latexmk pdflatex pdftotext pdfinfo xmllint chromium chromedriver \
            munged mungekey slurmctld slurmd sbatch squeue scancel sinfo; do
  path=$(command -v "$tool" || true)
  if [[ -z "$path" ]]; then
    gaps+=("program $tool: not installed, so no listed package brings it")
  else
    needs+=("program|$tool|$path|the Makefile and scripts")
  fi
done

# Files convlab notebook copies beside its pages (src/app/notebook_command.cpp), and the editor
# convlab watch --serve copies beside them (src/app/editor_assets.cpp).
for file in /usr/share/javascript/katex/katex.min.js /usr/share/javascript/katex/katex.min.css \
            /usr/share/javascript/katex/fonts/KaTeX_Main-Regular.woff2 \
            /usr/share/javascript/codemirror/lib/codemirror.js \
            /usr/share/javascript/codemirror/lib/codemirror.css \
            /usr/share/javascript/codemirror/mode/yaml/yaml.js \
            /usr/share/javascript/codemirror/mode/clike/clike.js \
            /usr/share/javascript/codemirror/mode/xml/xml.js \
            /usr/share/javascript/codemirror/mode/markdown/markdown.js \
            /usr/share/javascript/codemirror/addon/edit/matchbrackets.js \
            /usr/share/javascript/codemirror/addon/selection/active-line.js; do
  if [[ -e "$file" ]]; then
    needs+=("notebook file|${file##*/}|$file|convlab notebook")
  else
    gaps+=("notebook file $file: not installed, so no listed package brings it")
  fi
done

# Photographs: configs whose images come from files of a Debian package.
for config in "$source_dir"/configs/*.yaml; do
  while IFS= read -r pattern; do
    # shellcheck disable=SC2206
    matches=($pattern)
    if [[ ! -e "${matches[0]}" ]]; then
      gaps+=("photographs $pattern (${config#"$source_dir"/}): no file matches, so no listed package brings them")
    else
      needs+=("photographs|${matches[0]##*/}|${matches[0]}|${config#"$source_dir"/}")
    fi
  done < <(grep -oE '/usr/share/[^]"'"'"' ,]+' "$config" | sort -u)
done

# --- map every file to its package ---------------------------------------------------------------
declare -A owner=()
owners_of() {  # dpkg -S lines "pkg1, pkg2:arch: /path" -> owner[/path]="pkg1 pkg2"
  local line packages path
  while IFS= read -r line; do
    [[ "$line" == diversion* || "$line" != *": /"* ]] && continue
    packages=${line%%: /*}
    path=/${line#*: /}
    packages=$(echo "$packages" | tr ',' '\n' | sed 's/:.*//; s/ //g' | paste -sd' ')
    owner[$path]=${owner[$path]:+${owner[$path]} }$packages
  done < <(dpkg-query -S "$@" 2>/dev/null || true)
}
files=()
for need in "${needs[@]}"; do IFS='|' read -r _ _ file _ <<<"$need"; files+=("$file"); done
mapfile -t unique_files < <(printf '%s\n' "${files[@]}" | sort -u)
owners_of "${unique_files[@]}"
# Files reached through a symbolic link (alternatives, /bin -> /usr/bin) are owned by their target.
declare -A resolved=()
unowned=()
for file in "${unique_files[@]}"; do
  if [[ -z "${owner[$file]:-}" ]]; then
    resolved[$file]=$(realpath "$file")
    unowned+=("${resolved[$file]}")
  fi
done
[[ ${#unowned[@]} -gt 0 ]] && owners_of "${unowned[@]}"

is_cuda_toolkit() { [[ "$1" == /usr/local/cuda* || "$1" == /opt/nvidia/* ]]; }
declare -A summary=()
cuda_files=0
for need in "${needs[@]}"; do
  IFS='|' read -r kind name file where <<<"$need"
  packages=${owner[$file]:-}
  [[ -z "$packages" && -n "${resolved[$file]:-}" ]] && packages=${owner[${resolved[$file]}]:-}
  if [[ -z "$packages" ]]; then
    if is_cuda_toolkit "$(realpath "$file")"; then
      cuda_files=$((cuda_files + 1))
      [[ $verbose -eq 1 ]] && echo "CUDA Toolkit  $kind $name ($file)"
      continue
    fi
    gaps+=("$kind $name ($file, used by $where): belongs to no Debian package")
    continue
  fi
  verdict=
  for pkg in $packages; do
    if [[ -n "${in_lists[$pkg]:-}" ]]; then verdict="listed: $pkg"; break; fi
    [[ -z "$verdict" && -n "${in_closure[$pkg]:-}" ]] && verdict="in the Depends closure: $pkg"
  done
  if [[ -z "$verdict" ]]; then
    gaps+=("$kind $name ($file, used by $where): package $packages is neither listed in scripts/install-deps.sh nor a dependency of a listed package")
    continue
  fi
  [[ $verbose -eq 1 ]] && echo "ok  $kind $name -> $verdict"
  first=${packages%% *}
  summary["$kind: $first"]=$(( ${summary["$kind: $first"]:-0} + 1 ))
done

echo "install lists: ${#kept[@]} packages${without[*]:+ (without ${without[*]})}, ${#in_closure[@]} with their Depends closure"
for key in "${!summary[@]}"; do printf '  %-34s %5d files\n' "$key" "${summary[$key]}"; done | sort
echo "  $header_count headers compiled; $cuda_files of them from the CUDA Toolkit (CUDA runtime, NPP and"
echo "  NVML headers come with NVIDIA's CUDA Toolkit installer, not from Debian packages)"

if [[ -n "$expect_gap" ]]; then
  for gap in "${gaps[@]+"${gaps[@]}"}"; do
    if [[ "$gap" == *"$expect_gap"* ]]; then
      echo "gap found as expected: $gap"
      exit 0
    fi
  done
  echo "expected a gap naming '$expect_gap', found ${#gaps[@]} gaps: the check cannot detect it"
  exit 1
fi
if [[ ${#gaps[@]} -gt 0 ]]; then
  echo "${#gaps[@]} things convlab uses are not brought by scripts/install-deps.sh:"
  printf '  %s\n' "${gaps[@]}"
  exit 1
fi
echo "complete: every file above comes from a listed package or its Depends closure"
