#!/bin/sh
# install-test.sh BUILDDIR EXAMPLE.c RUN-MPI.sh
#
# Installs the build into a temporary DESTDIR (meson install --no-rebuild),
# builds EXAMPLE.c with the MPI compiler wrapper against the installed
# onecoll only (pkg-config on the installed onecoll.pc, with the DESTDIR
# as sysroot), checks that the program loads the installed libonecoll.so.1,
# and runs it on 3 ranks. MPICC may name the compiler (default mpicc).
set -eu
build=$1 example=$2 runner=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >/dev/null
pc=$(find "$tmp/root" -name onecoll.pc | head -n 1)
so=$(find "$tmp/root" -name libonecoll.so.1 | head -n 1)
for f in onecoll.h onecoll-trace.h; do
  [ -n "$(find "$tmp/root" -name "$f")" ] || { echo "FAIL: $f not installed"; exit 1; }
done
[ -n "$pc" ] && [ -n "$so" ] || { echo "FAIL: onecoll.pc or libonecoll.so.1 not installed"; exit 1; }
[ "$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" = libonecoll.so.1 ] \
  || { echo "FAIL: the soname is not libonecoll.so.1"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR="$tmp/root"
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
# shellcheck disable=SC2046
"${MPICC:-mpicc}" -std=c11 -Wall -Werror "$example" -o "$tmp/example" $(pkg-config --cflags --libs onecoll)
LD_LIBRARY_PATH=$(dirname "$so")
export LD_LIBRARY_PATH
ldd "$tmp/example" | grep -q "libonecoll.so.1 => $tmp/root" \
  || { echo "FAIL: the example does not load the installed library"; ldd "$tmp/example"; exit 1; }
"$runner" 120 3 "$tmp/example"
