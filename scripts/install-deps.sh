#!/usr/bin/env bash
# Installs the Debian packages convlab needs, and only the missing ones.
# Usage: scripts/install-deps.sh [build|report|notebook|test|photos|ci|all]
#        scripts/install-deps.sh --list [build|report|notebook|test|photos|ci|all]   (print the packages, install nothing)
#   build  - compiler, CMake, yaml-cpp, nlohmann-json, stb, GoogleTest, OpenCV (the CPU peers),
#            cmark (the discussions' Markdown), cpp-httplib (the notebook's HTTP server,
#            `--serve`, and the browser tests' WebDriver client), valijson (the JSON Schema
#            validator the config schema tests compile against; in this group, as GoogleTest is,
#            because `make build` compiles the tests)
#   report - gnuplot, the TeX Live packages and fonts for make report, poppler-utils for its tests
#   notebook - gnuplot (figures as SVG) and KaTeX (math) for make notebook, and CodeMirror (the
#            editor of the cells of a page served by `convlab watch --serve`)
#   test   - what make test needs beyond the build: headless Chromium and its WebDriver for the
#            notebook's browser tests, xmllint for its well-formedness checks, and a one-node SLURM
#            cluster for the SLURM test (munge, slurmctld, slurmd, slurm-client;
#            scripts/slurm-cluster.sh starts it)
#   photos - the Debian package whose photographs feed the gallery and real-image experiments
#   ci     - what CI needs beyond make test, report and notebook: debootstrap, with which
#            scripts/fresh-box-check.sh makes a new Debian 12 to follow the README in
# As root the packages are installed with apt-get; otherwise the exact command is printed and the
# script exits 1. CONVLAB_NO_INSTALL=1 turns installation off (a missing package is then an error).
# Packages are installed without their recommendations, so every package a file comes from is
# listed here (lmodern is only recommended by TeX Live); scripts/check-install-lists.sh checks that
# nothing the build, the tests and the report use is missing from these lists.
set -euo pipefail

build_packages=(g++ make cmake pkg-config libyaml-cpp-dev nlohmann-json3-dev libstb-dev libgtest-dev
                libopencv-dev libcmark-dev libcpp-httplib-dev libvalijson-dev zlib1g-dev)
report_packages=(gnuplot-nox latexmk texlive-latex-base texlive-latex-recommended texlive-latex-extra
                 texlive-fonts-recommended lmodern poppler-utils)
notebook_packages=(gnuplot-nox libjs-katex libjs-codemirror)
test_packages=(chromium chromium-driver libxml2-utils munge slurmctld slurmd slurm-client time)
photo_packages=(opencv-doc)
ci_packages=(debootstrap)

list_only=0
if [[ "${1:-}" == "--list" ]]; then
  list_only=1
  shift
fi

case "${1:-build}" in
  build) wanted=("${build_packages[@]}") ;;
  report) wanted=("${report_packages[@]}") ;;
  notebook) wanted=("${notebook_packages[@]}") ;;
  test) wanted=("${test_packages[@]}") ;;
  photos) wanted=("${photo_packages[@]}") ;;
  ci) wanted=("${ci_packages[@]}") ;;
  all) wanted=("${build_packages[@]}" "${report_packages[@]}" "${notebook_packages[@]}"
               "${test_packages[@]}" "${photo_packages[@]}" "${ci_packages[@]}") ;;
  *) echo "usage: $0 [--list] [build|report|notebook|test|photos|ci|all]" >&2; exit 2 ;;
esac
if [[ $list_only -eq 1 ]]; then
  printf '%s\n' "${wanted[@]}"
  exit 0
fi

missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "convlab: missing packages (${missing[*]}) and no apt-get on this machine; install them by hand." >&2
  exit 1
fi
if [[ "${CONVLAB_NO_INSTALL:-0}" == "1" ]]; then
  echo "convlab: missing packages: ${missing[*]} (CONVLAB_NO_INSTALL=1, not installing)" >&2
  exit 1
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "convlab: missing Debian packages. Install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "convlab: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them when the install cannot find a package.
if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
