#!/usr/bin/env bash
# The Debian packages a GPU machine needs to build the kernels and their tests, as a folder that
# travels with the tree (the GPU machine reaches no package registry).
#   bash kernels/lab/tools/gpu_deps.sh fetch    here, once: apt-get download into .deps/ (git-ignored)
#   P=$(bash kernels/lab/tools/gpu_deps.sh unpack)   there: unpacks .deps/*.deb into .deps/root and
#                                           prints the prefix for -DCMAKE_PREFIX_PATH (/usr when
#                                           there is no .deps and the packages are installed)
# On a GPU machine without these packages installed: run `fetch` where apt works, copy .deps/ over.
# Header-only packages and tomlplusplus (one shared library, found through its rewritten .pc).
set -euo pipefail
cd "$(dirname "$0")/../../.."
PACKAGES=(nlohmann-json3-dev libgtest-dev googletest libcli11-dev libtomlplusplus-dev libtomlplusplus3)

case "${1:-}" in
  fetch)
    mkdir -p .deps
    if ! (cd .deps && apt-get download "${PACKAGES[@]}" >/dev/null 2>&1); then
      echo "gpu_deps: apt-get download failed; run 'apt-get update' first (root) and try again" >&2
      exit 1
    fi
    ls .deps/*.deb
    ;;
  unpack)
    shopt -s nullglob
    debs=(.deps/*.deb)
    if [ ${#debs[@]} -eq 0 ]; then
      # A GPU machine that has the packages installed needs nothing more.
      if dpkg -s "${PACKAGES[@]}" >/dev/null 2>&1; then
        echo "/usr"
        exit 0
      fi
      echo "gpu_deps: no .deps/*.deb and the packages (${PACKAGES[*]}) are not installed:" \
           "install them (sudo apt-get install ${PACKAGES[*]}), or run 'bash kernels/lab/tools/gpu_deps.sh fetch'" \
           "on a machine with apt and copy .deps here" >&2
      exit 1
    fi
    for d in "${debs[@]}"; do dpkg-deb -x "$d" .deps/root; done
    # pkg-config files name /usr: point them at the unpacked tree (tomlplusplus is found that way).
    for pc in .deps/root/usr/lib/*/pkgconfig/*.pc .deps/root/usr/share/pkgconfig/*.pc; do
      sed -i "s|^prefix=/usr\$|prefix=$PWD/.deps/root/usr|" "$pc"
    done
    echo "$PWD/.deps/root/usr"
    ;;
  *)
    echo "usage: bash kernels/lab/tools/gpu_deps.sh fetch|unpack" >&2
    exit 2
    ;;
esac
