#!/bin/sh
# What `meson install` ships, staged under a DESTDIR (issue 36 point 9):
# every scenarios/*.ini beside the binary, so an installed mmemu runs
# `mmemu run ycsb-b` without the source tree; and the example plug-in
# builds against the staged header and pkg-config file, as
# examples/policy/README.md says.
# usage: installed.sh SRCDIR BUILDDIR
set -eu
src=$1 build=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
meson install -C "$build" --destdir "$d/root" --no-rebuild --quiet >/dev/null
share=$(find "$d/root" -type d -path '*/share/mmemu/scenarios')
[ -n "$share" ] || { echo "no share/mmemu/scenarios under the staged install"; exit 1; }
missing=0
for f in "$src"/scenarios/*.ini; do
	if ! cmp -s "$f" "$share/$(basename "$f")"; then
		echo "not installed: scenarios/$(basename "$f") (add it to scenario_files in scenarios/meson.build)"
		missing=1
	fi
done
[ $missing = 0 ]
# the example plug-in against the staged header: pkg-config prefixes the
# .pc file's paths with PKG_CONFIG_SYSROOT_DIR
pc=$(dirname "$(find "$d/root" -name mmemu.pc)")
PKG_CONFIG_SYSROOT_DIR="$d/root" PKG_CONFIG_PATH="$pc" \
	sh -c 'cc -shared -fPIC -Wall -Wextra -Werror $(pkg-config --cflags mmemu) \
	       -o "$1/s3fifo.so" "$2/examples/policy/s3fifo.c"' sh "$d" "$src"
[ -s "$d/s3fifo.so" ] || { echo "examples/policy did not build against the staged install"; exit 1; }
echo "installed: $(ls "$share" | grep -c '\.ini$') scenarios; examples/policy builds against the staged install"
