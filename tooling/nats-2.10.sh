#!/usr/bin/env bash
# Puts nats-server 2.10 (Debian trixie's build) into a cache folder when it is not there yet,
# beside the system's own nats-server (bookworm's 2.9.10, which the shared server on 4222 runs
# and which this never replaces). The cluster tests run a private 3-node cluster of it.
# Prints the binary's path. BERTH_NATS_2_10_BIN, when set, names a binary to use instead.
set -euo pipefail

VERSION=2.10.27
DEB=nats-server_2.10.27-1+b2_amd64.deb
SHA256=6d913ac987b78734c08537c2adeb1526cf735f216173a9170d94b185fcfe6f8a
URL=http://deb.debian.org/debian/pool/main/n/nats-server/$DEB

cache=${BERTH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/berth}
bin=${BERTH_NATS_2_10_BIN:-$cache/nats-server-$VERSION/nats-server}

if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "v2\.10\."; then
  echo "$bin"
  exit 0
fi
if [ -n "${BERTH_NATS_2_10_BIN:-}" ]; then
  echo "nats-2.10: BERTH_NATS_2_10_BIN=$bin is not a nats-server 2.10 binary; unset it to fetch $VERSION" >&2
  exit 1
fi
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
if [ "$arch" != amd64 ] && [ "$arch" != x86_64 ]; then
  echo "nats-2.10: only the amd64 build is pinned here ($arch found); set BERTH_NATS_2_10_BIN to a nats-server 2.10 binary" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "nats-2.10: fetching $URL" >&2
if ! curl -fsSL --retry 3 -o "$tmp/$DEB" "$URL"; then
  # The pool drops a build once trixie supersedes it: take the new Filename and SHA256 from
  # `apt-cache show nats-server` with trixie in the sources, and update the three lines above.
  echo "nats-2.10: could not fetch $URL (superseded in trixie?); update DEB and SHA256 in $0" >&2
  exit 1
fi
echo "$SHA256  $tmp/$DEB" | sha256sum --check --quiet -
dpkg-deb -x "$tmp/$DEB" "$tmp/root"
mkdir -p "$(dirname "$bin")"
install -m 0755 "$tmp/root/usr/sbin/nats-server" "$bin.partial"
mv "$bin.partial" "$bin"
"$bin" --version >&2
echo "$bin"
