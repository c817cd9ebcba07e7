#!/usr/bin/env bash
# Installs the Debian packages GEMM Lab needs, only those missing. Used by run.sh and test.sh.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  nlohmann-json3-dev libgtest-dev libcli11-dev
  libimgui-dev libglfw3-dev libepoxy-dev libstb-dev libmd4c-dev libtomlplusplus-dev
  fonts-dejavu-core fonts-wqy-microhei
  xvfb xauth xdotool libgl1-mesa-dri
  clang libclang-rt-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "[deps] all ${#packages[@]} Debian packages present"
  exit 0
fi

echo "[deps] installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "[deps] error: not root and no sudo; install these packages and run again: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
