#!/usr/bin/env bash
# sdk_deb — CPack builds a .deb of the SDK: it installs under /usr (tools, the shared
# library with its soname link, header, pkg-config and CMake files, spec, kit, man
# pages) and declares the shared-library dependencies dpkg-shlibdeps finds (libxml2).
#   sdk_deb.sh BUILD_DIR WORK
set -u
build=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/xphmg_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no .deb in $work"
dpkg-deb -c "$deb" >"$work/contents"
for f in ./usr/bin/xphmg-sim ./usr/bin/xphmg-objdump ./usr/include/xphmg/isa.h \
    libxphmg_isa.so.0 /pkgconfig/xphmg-isa.pc /cmake/xphmg/xphmgConfig.cmake \
    ./usr/share/xphmg/xphmg.xml ./usr/share/xphmg/target/link.ld \
    ./usr/share/man/man1/xphmg-sim.1; do
    grep -qF "$f" "$work/contents" || fail "$f not in $(basename "$deb")"
done
dpkg-deb -f "$deb" Depends | grep -q libxml2 || fail "Depends lacks libxml2: $(dpkg-deb -f "$deb" Depends)"
echo "sdk_deb: ok ($(basename "$deb"))"
