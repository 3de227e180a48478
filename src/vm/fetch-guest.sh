#!/usr/bin/env bash
# Fetches a guest kernel for the vm kind from Debian's packages and unpacks it where the vm kind
# looks by default (no image is committed to the repository):
#
#   src/vm/fetch-guest.sh [DEST]        # DEST defaults to /var/cache/spacebench/vm-guest
#
# Result: DEST/vmlinuz and DEST/modules (that kernel's lib/modules/VERSION). Needs apt-get and
# dpkg-deb (Debian or Ubuntu); run as root, or as a user who can write DEST. The vm kind also
# needs qemu-system-x86 and busybox-static (apt-get install -y --no-install-recommends
# qemu-system-x86 busybox-static). Point elsewhere with spacebench.space.vm.kernel/.modules.
set -euo pipefail
DEST=${1:-/var/cache/spacebench/vm-guest}
if [ -f "$DEST/vmlinuz" ] && [ -d "$DEST/modules" ]; then
  echo "guest kernel already in $DEST: $(readlink "$DEST/vmlinuz")"
  exit 0
fi
# The metapackage names the current kernel package; download that one (not installed on the host).
PKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -z "$PKG" ]; then
  echo "no linux-image-amd64 in the package lists: run apt-get update first" >&2
  exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && apt-get download "$PKG" >/dev/null)
mkdir -p "$DEST"
dpkg-deb -x "$TMP"/*.deb "$DEST/unpacked"
VERSION=${PKG#linux-image-}
ln -sfn "unpacked/boot/vmlinuz-$VERSION" "$DEST/vmlinuz"
ln -sfn "unpacked/lib/modules/$VERSION" "$DEST/modules"
echo "guest kernel $PKG unpacked into $DEST"
