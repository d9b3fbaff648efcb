#!/usr/bin/env bash
# CommonMark (libcmark, which renders the discussions for the report and the notebook) for a
# machine without a package registry, such as the GPU machine (Ubuntu 24.04 without libcmark-dev):
# convlab does not configure without it.
#
#   scripts/gpu-machine/cmark-carry.sh DIR
#     On a Debian 12 machine with apt (the development machine): downloads Debian's libcmark and
#     libcmark-dev (apt-get download, no installation) and unpacks them (dpkg -x) into DIR
#     (about 0.5 MB). The pkg-config file is written with paths relative to itself, so DIR may be
#     copied anywhere.
#
# On the machine that builds convlab, with DIR copied there:
#   export PKG_CONFIG_PATH="$DIR/usr/lib/x86_64-linux-gnu/pkgconfig"
#   export LD_LIBRARY_PATH="$DIR/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
#   tests/gpu/gpu_machine_check.sh STB_DIR     # or cmake -S . -B build-gpu ... as usual
set -euo pipefail

[[ $# -eq 1 && "$1" != -* ]] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download libcmark-dev "$(apt-cache depends libcmark-dev |
                                                 sed -n 's/^ *Depends: \(libcmark[0-9.]*\)$/\1/p')")
for deb in "$work"/*.deb; do dpkg -x "$deb" "$dir"; done
pc="$dir/usr/lib/x86_64-linux-gnu/pkgconfig/libcmark.pc"
# pkg-config sets ${pcfiledir} to the folder of the .pc file: the prefix (DIR/usr) is three folders up.
sed -i 's#^prefix=.*#prefix=${pcfiledir}/../../..#; s#^exec_prefix=.*#exec_prefix=${prefix}#;
        s#^libdir=.*#libdir=${prefix}/lib/x86_64-linux-gnu#; s#^includedir=.*#includedir=${prefix}/include#' "$pc"
ls "$dir/usr/include/cmark.h" "$dir"/usr/lib/x86_64-linux-gnu/libcmark.so* >/dev/null
echo "libcmark for another machine in $dir; PKG_CONFIG_PATH=$dir/usr/lib/x86_64-linux-gnu/pkgconfig"
