#!/usr/bin/env bash
# OpenCV (core, imgproc) for a machine without a package registry, such as the GPU machine
# (Ubuntu 24.04, no OpenCV C++ development files), so the OpenCV peers run there in the same
# process as convlab's CPU rungs.
#
#   scripts/gpu-machine/opencv-carry.sh DIR
#     On a Debian 12 machine with apt (the development machine): downloads Debian's OpenCV core and
#     imgproc packages (runtime and headers) and the shared libraries they load that a minimal
#     Ubuntu may lack (apt-get download, no installation), unpacks them (dpkg -x) and keeps only
#     what building and running convlab needs, in DIR (about 30 MB):
#       DIR/usr/include/opencv4                     OpenCV's headers (core, imgproc)
#       DIR/usr/lib/x86_64-linux-gnu                libopencv_core, libopencv_imgproc, libtbb:
#                                                   always used from here
#       DIR/usr/lib/x86_64-linux-gnu/cmake/opencv4  a minimal OpenCVConfig.cmake for the two modules
#       DIR/fallback                                libGLX, libX11, liblapack, libblas, libgfortran
#                                                   and their own dependencies: used only where
#                                                   the machine has no copy of its own
#     Files are regular files named by their SONAME (no symlinks), and every path in the CMake
#     config is relative to it, so DIR may be moved or copied anywhere. The script checks that
#     every library's dependencies are in DIR or are the C/C++ runtime, zlib and the loader.
#
#   scripts/gpu-machine/opencv-carry.sh --library-path DIR
#     On the machine that runs convlab: links the fallback libraries the system does not have
#     (per `ldconfig -p`) into DIR/missing and prints the LD_LIBRARY_PATH to run convlab with.
#
# Building and running convlab on the GPU machine with the carried folder (DIR copied there, from
# the repository root; add the usual flags, e.g. -DCONVLAB_STB_INCLUDE_DIR):
#   cmake -S . -B build-gpu -DOpenCV_DIR="$DIR/usr/lib/x86_64-linux-gnu/cmake/opencv4"
#   cmake --build build-gpu -j"$(nproc)"          # links without LD_LIBRARY_PATH (-rpath-link)
#   export LD_LIBRARY_PATH="$(scripts/gpu-machine/opencv-carry.sh --library-path "$DIR")"
#   build-gpu/convlab list | grep OpenCV         # "OpenCV: built (4.6.0)"
#   build-gpu/convlab run configs/cpu_vs_opencv_16core.yaml
# LD_LIBRARY_PATH is needed by whatever runs convlab or its tests (ctest too); cmake reports
# "OpenCV 4.6.0 found (DIR/...)" when it configures. Without -DOpenCV_DIR the OpenCV points are
# skipped with "OpenCV not found at build time".
set -euo pipefail

usage() {
  echo "usage: $0 DIR | --library-path DIR" >&2
  exit 2
}

lib_dir=usr/lib/x86_64-linux-gnu

if [[ "${1:-}" == "--library-path" ]]; then
  [[ $# -eq 2 ]] || usage
  dir=$(cd "$2" && pwd)
  [[ -d "$dir/$lib_dir" && -d "$dir/fallback" ]] || { echo "$0: $2 is not a folder made by $0" >&2; exit 2; }
  rm -rf "$dir/missing"
  mkdir -p "$dir/missing"
  known=$(ldconfig -p 2>/dev/null || /sbin/ldconfig -p)
  for lib in "$dir"/fallback/*; do
    name=$(basename "$lib")
    grep -q "^[[:space:]]*$name (.*x86-64" <<<"$known" || ln -s "$lib" "$dir/missing/$name"
  done
  echo "$dir/$lib_dir:$dir/missing${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  exit 0
fi

[[ $# -eq 1 && "${1:0:1}" != "-" ]] || usage
command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
  { echo "$0: needs apt-get and dpkg (a Debian machine)" >&2; exit 1; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)

# The packages: OpenCV's own, then what libopencv_core.so.406 loads (libtbb, libGLX, liblapack,
# libblas) and what those load in turn. libc, libstdc++, libgcc_s, libm and zlib are everywhere.
opencv_packages=(libopencv-core406 libopencv-imgproc406 libopencv-core-dev libopencv-imgproc-dev
                 libtbb12)
fallback_packages=(libglx0 libglvnd0 libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0
                   liblapack3 libblas3 libgfortran5 libquadmath0)
# The libraries kept, by SONAME.
opencv_sonames=(libopencv_core.so.406 libopencv_imgproc.so.406 libtbb.so.12)
fallback_sonames=(libGLX.so.0 libGLdispatch.so.0 libX11.so.6 libxcb.so.1 libXau.so.6 libXdmcp.so.6
                  libbsd.so.0 libmd.so.0 liblapack.so.3 libblas.so.3 libgfortran.so.5
                  libquadmath.so.0)
system_sonames=" libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 libz.so.1 ld-linux-x86-64.so.2 "
system_sonames+=" libpthread.so.0 libdl.so.2 librt.so.1 "

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 0777 "$work"  # apt-get download writes as its own unprivileged user when run as root
(cd "$work" && apt-get download "${opencv_packages[@]}" "${fallback_packages[@]}") >&2
for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/root"; done

soname_of() { objdump -p "$1" 2>/dev/null | awk '$1 == "SONAME" { print $2 }'; }

# Copies the regular file whose SONAME is $1 to $2/$1.
keep() {
  local soname=$1 dest=$2 file
  while IFS= read -r -d '' file; do
    if [[ "$(soname_of "$file")" == "$soname" ]]; then
      cp "$file" "$dest/$soname"
      return 0
    fi
  done < <(find "$work/root" -type f -name "${soname%%.so*}.so*" -print0)
  echo "$0: no library with SONAME $soname in the downloaded packages" >&2
  exit 1
}

rm -rf "${dir:?}/usr" "$dir/fallback" "$dir/missing"
mkdir -p "$dir/$lib_dir/cmake/opencv4" "$dir/usr/include" "$dir/fallback"
cp -r "$work/root/usr/include/opencv4" "$dir/usr/include/"
for soname in "${opencv_sonames[@]}"; do keep "$soname" "$dir/$lib_dir"; done
for soname in "${fallback_sonames[@]}"; do keep "$soname" "$dir/fallback"; done

# Every dependency is carried or is part of every Linux system.
missing=0
for lib in "$dir/$lib_dir"/*.so.* "$dir"/fallback/*; do
  for needed in $(objdump -p "$lib" | awk '$1 == "NEEDED" { print $2 }'); do
    [[ -e "$dir/$lib_dir/$needed" || -e "$dir/fallback/$needed" || "$system_sonames" == *" $needed "* ]] ||
      { echo "$0: $(basename "$lib") needs $needed, which is not carried" >&2; missing=1; }
  done
done
[[ $missing -eq 0 ]] || exit 1

version=$(sed -n 's/^#define CV_VERSION_\(MAJOR\|MINOR\|REVISION\)[[:space:]]*\([0-9]*\).*/\2/p' \
  "$dir/usr/include/opencv4/opencv2/core/version.hpp" | paste -sd.)
cat >"$dir/$lib_dir/cmake/opencv4/OpenCVConfig.cmake" <<EOF
# OpenCV $version core and imgproc from Debian's packages, carried by scripts/gpu-machine/opencv-carry.sh.
# Debian's own OpenCVConfig.cmake describes every OpenCV module; this folder holds two. Paths are
# relative to this file, so the folder can be moved.
get_filename_component(_carried_usr "\${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
get_filename_component(_carried_root "\${_carried_usr}/.." ABSOLUTE)
set(_carried_lib "\${_carried_usr}/lib/x86_64-linux-gnu")
set(OpenCV_VERSION $version)
string(REPLACE "." ";" _carried_version "\${OpenCV_VERSION}")
list(GET _carried_version 0 OpenCV_VERSION_MAJOR)
list(GET _carried_version 1 OpenCV_VERSION_MINOR)
list(GET _carried_version 2 OpenCV_VERSION_PATCH)
set(OpenCV_INCLUDE_DIRS "\${_carried_usr}/include/opencv4")
set(OpenCV_INSTALL_PATH "\${_carried_usr}")
foreach(_module IN ITEMS core imgproc)
  if(NOT TARGET opencv_\${_module})
    add_library(opencv_\${_module} SHARED IMPORTED)
    set_target_properties(opencv_\${_module} PROPERTIES
      IMPORTED_LOCATION "\${_carried_lib}/libopencv_\${_module}.so.406"
      INTERFACE_INCLUDE_DIRECTORIES "\${OpenCV_INCLUDE_DIRS}"
      # The linker follows libopencv_core's own dependencies (libtbb, libGLX, ...) here.
      INTERFACE_LINK_OPTIONS "LINKER:-rpath-link,\${_carried_lib}:\${_carried_root}/fallback")
  endif()
endforeach()
set_property(TARGET opencv_imgproc PROPERTY INTERFACE_LINK_LIBRARIES opencv_core)
set(OpenCV_LIBS opencv_core opencv_imgproc)
set(OpenCV_FOUND TRUE)
foreach(_component IN LISTS OpenCV_FIND_COMPONENTS)
  if(NOT _component MATCHES "^(opencv_)?(core|imgproc)\$")
    set(OpenCV_FOUND FALSE)
    set(OpenCV_NOT_FOUND_MESSAGE "the carried OpenCV has core and imgproc only, not \${_component}")
  endif()
endforeach()
EOF
cat >"$dir/$lib_dir/cmake/opencv4/OpenCVConfig-version.cmake" <<EOF
set(PACKAGE_VERSION $version)
set(PACKAGE_VERSION_EXACT FALSE)
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION_MAJOR EQUAL ${version%%.*} AND PACKAGE_FIND_VERSION VERSION_LESS PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
EOF

echo "$dir: OpenCV $version (core, imgproc) and $(ls "$dir/fallback" | wc -l) fallback libraries, $(du -sh "$dir" | cut -f1)" >&2
