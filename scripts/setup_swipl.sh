#!/usr/bin/env bash
# Build SWI-Prolog >= 9.1.12 (needed by janus-swi) from Debian trixie's source tarball into a cache
# outside the clone. Idempotent: a second run finds the cached build and only prints its prefix.
#
# Usage: scripts/setup_swipl.sh            -> prints the install prefix on the last line of stdout
# Env:   DROWZEE_CACHE (default ~/.cache/drowzee)
set -euo pipefail

SWIPL_VERSION=9.2.9
CACHE="${DROWZEE_CACHE:-$HOME/.cache/drowzee}"
PREFIX="$CACHE/swipl-$SWIPL_VERSION"
log() { echo "[setup-swipl] $*" >&2; }

if [ -x "$PREFIX/bin/swipl" ] && "$PREFIX/bin/swipl" --version >/dev/null 2>&1; then
  log "cached build found at $PREFIX"
  echo "$PREFIX"
  exit 0
fi

need_pkgs=(build-essential cmake ninja-build pkg-config libgmp-dev libssl-dev zlib1g-dev
           libpcre2-dev libarchive-dev libyaml-dev libreadline-dev libedit-dev libdb-dev)
missing=()
for p in "${need_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing build dependencies: ${missing[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

WORK="$CACHE/build-swipl"
mkdir -p "$WORK"
TARBALL="swi-prolog_${SWIPL_VERSION}+dfsg.orig.tar.gz"
if [ ! -f "$WORK/$TARBALL" ]; then
  # A private apt configuration that knows only trixie's deb-src; the system lists stay untouched.
  APTDIR="$WORK/apt"
  mkdir -p "$APTDIR/lists/partial" "$APTDIR/parts"
  uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  uri="${uri:-http://deb.debian.org/debian}"
  echo "deb-src [trusted=yes] $uri trixie main" > "$APTDIR/sources.list"
  opts=(-o "Dir::Etc::sourcelist=$APTDIR/sources.list" -o "Dir::Etc::sourceparts=$APTDIR/parts"
        -o "Dir::State::Lists=$APTDIR/lists")
  log "fetching $TARBALL from Debian trixie sources"
  apt-get "${opts[@]}" update -qq >&2
  # apt-get exits non-zero: only the orig tarball is served, which is all we need. Check the file.
  (cd "$WORK" && apt-get "${opts[@]}" source --download-only "swi-prolog=${SWIPL_VERSION}+dfsg-*" >&2 \
     || apt-get "${opts[@]}" source --download-only swi-prolog >&2) || true
  if [ ! -f "$WORK/$TARBALL" ]; then
    log "ERROR: $TARBALL was not downloaded; check access to Debian's package mirror"
    exit 1
  fi
fi

SRC="$WORK/src"
rm -rf "$SRC" && mkdir -p "$SRC"
tar -xzf "$WORK/$TARBALL" -C "$SRC" --strip-components=1
mkdir -p "$SRC/build"
log "configuring and building (a few minutes on 2 cores)"
(cd "$SRC/build" && cmake -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX" \
   -DSWIPL_PACKAGES_X=OFF -DSWIPL_PACKAGES_JAVA=OFF -DSWIPL_PACKAGES_ODBC=OFF \
   -DSWIPL_PACKAGES_QT=OFF -DINSTALL_DOCUMENTATION=OFF -DBUILD_TESTING=OFF .. >&2 \
   && ninja >&2 && ninja install >&2)
rm -rf "$SRC"
"$PREFIX/bin/swipl" --version >&2
echo "$PREFIX"
