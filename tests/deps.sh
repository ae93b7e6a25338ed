#!/bin/sh
# tools/quickstart's first comparison needs no test-only package and builds
# no test program (issue 36 point 10); tools/check installs and builds them.
# dpkg-query, meson and ninja are stand-ins on PATH that record their calls.
# usage: deps.sh SRCDIR
set -eu
src=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir "$d/bin" "$d/tree" "$d/tree/tools"
cp "$src/tools/build" "$src/tools/install-deps" "$d/tree/tools/"
cat > "$d/bin/dpkg-query" <<'X'
#!/bin/sh
# every package is installed but the ones named in $NOT_INSTALLED
for p in $NOT_INSTALLED; do [ "$p" = "$3" ] && exit 1; done
printf 'install ok installed'
X
printf '#!/bin/sh\necho "meson $*" >> "%s/calls"\n' "$d" > "$d/bin/meson"
printf '#!/bin/sh\necho "ninja $*" >> "%s/calls"\n' "$d" > "$d/bin/ninja"
chmod +x "$d/bin/"*
export PATH="$d/bin:$PATH"
fail() { echo "FAIL: $*"; exit 1; }

# what each profile needs, when nothing is installed
all="chromium chromium-driver python3-selenium libopenmpi-dev openmpi-bin check meson libsimgrid-dev"
run=$(NOT_INSTALLED="$all" sh "$d/tree/tools/install-deps" --missing run) && fail "run: nothing missing"
test=$(NOT_INSTALLED="$all" sh "$d/tree/tools/install-deps" --missing test) && fail "test: nothing missing"
for p in chromium chromium-driver python3-selenium libopenmpi-dev openmpi-bin check; do
	case " $run " in *" $p "*) fail "quickstart would install $p" ;; esac
	case " $test " in *" $p "*) ;; *) fail "tools/check would not install $p" ;; esac
done
for p in meson libsimgrid-dev; do
	case " $run " in *" $p "*) ;; *) fail "quickstart would not install $p" ;; esac
done
NOT_INSTALLED= sh "$d/tree/tools/install-deps" --missing run >/dev/null || fail "all installed, still missing"

# tools/build: the mmemu command only; --test: everything
NOT_INSTALLED= sh "$d/tree/tools/build" "$d/b" 2>/dev/null
grep -qx "ninja -C $d/b tools/mmemu" "$d/calls" || fail "tools/build built: $(cat "$d/calls")"
: > "$d/calls"
touch "$d/b/build.ninja" 2>/dev/null || { mkdir -p "$d/b"; touch "$d/b/build.ninja"; }
NOT_INSTALLED= sh "$d/tree/tools/build" --test "$d/b" 2>/dev/null
grep -qx "ninja -C $d/b" "$d/calls" || fail "tools/build --test built: $(cat "$d/calls")"
grep -q "^meson" "$d/calls" && fail "reconfigured with nothing installed: $(cat "$d/calls")"
echo "ok: quickstart needs $(echo $run | wc -w) of the $(echo $all | wc -w) packages asked about, builds tools/mmemu only"
