#!/usr/bin/env bash
# Install the Debian 12 packages simpvi needs; does nothing (quickly) when they are all present.
set -euo pipefail
pkgs=(petsc-dev libsundials-dev cmake libgsl-dev pkg-config python3 python3-petsc4py gnuplot-nox
  python3-matplotlib valgrind make gcc)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
apt_install() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }
echo "ci/deps.sh: installing ${missing[*]}"
# Update the package lists only when installing from the current ones fails (absent or stale).
apt_install || { $sudo apt-get update && apt_install; }
