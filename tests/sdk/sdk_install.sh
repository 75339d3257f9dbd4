#!/usr/bin/env bash
# sdk_install — the installed SDK works on its own (docs/tools.md "SDK"):
#
#   sdk_install.sh BUILD_DIR CONSUMER_SRC GNU_GCC
#
# Everything happens in a fresh temporary directory outside the source and build trees
# (removed on success): the consumer project is copied there first.
# 1. cmake --install BUILD_DIR into a fresh prefix;
# 2. the expected files are there (tools, shared+static library, header, pkg-config,
#    CMake package, spec XML+XSD, target kit with the generated headers, man pages);
# 3. CONSUMER_SRC (a CMake project outside the tree) is configured with only
#    CMAKE_PREFIX_PATH=WORK/prefix, built, and its cache names nothing of the source or
#    build tree; its library consumer (shared and static) runs, its guest program runs
#    on the installed xphmg-sim;
# 4. the same consumer and guest built by hand with pkg-config (xphmg-isa, xphmg-target);
# 5. the installed xphmg-objdump and xphmg-isa use the installed spec.
# Exit 0 pass, 1 fail, 77 skipped (no riscv64-unknown-elf-gcc).
set -u
build=$1 gcc=$3
[ -x "$gcc" ] || { echo "SKIP: no riscv64-unknown-elf-gcc"; exit 77; }
fail() { echo "FAIL: $* (files kept in $work)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/xphmg-sdk.XXXXXX") || exit 1
cp -r "$2" "$work/consumer"
consumer=$work/consumer
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install"
libdir=$(cd "$prefix" && ls -d lib* | head -1)
[ -f "$prefix/$libdir/libxphmg_isa.so" ] || libdir=$(dirname "$(cd "$prefix" && find . -name libxphmg_isa.so | head -1)")
for f in bin/xphmg-sim bin/xphmg-objdump bin/xphmg-isa bin/xphmg-bvh bin/xphmg-gen \
    "$libdir/libxphmg_isa.so" "$libdir/libxphmg_isa.a" include/xphmg/isa.h \
    "$libdir/pkgconfig/xphmg-isa.pc" "$libdir/pkgconfig/xphmg-target.pc" \
    "$libdir/cmake/xphmg/xphmgConfig.cmake" "$libdir/cmake/xphmg/xphmgTargets.cmake" \
    share/xphmg/xphmg.xml share/xphmg/xphmg.xsd share/xphmg/cmake/guest.cmake \
    share/xphmg/target/crt0.S share/xphmg/target/link.ld share/xphmg/target/syscalls.c \
    share/xphmg/target/include/xphmg_insn.h share/xphmg/target/include/xphmg_csr.h \
    share/xphmg/target/include/xphmg_cap.h share/man/man1/xphmg-sim.1 \
    share/man/man1/xphmg-objdump.1 share/man/man3/xphmg_isa.3; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
xmllint --noout --schema "$prefix/share/xphmg/xphmg.xsd" "$prefix/share/xphmg/xphmg.xml" 2>/dev/null ||
    fail "installed XML does not validate against the installed XSD"

# 3. CMake consumer
env -u XPHMG_SPEC cmake -S "$consumer" -B "$work/cbuild" -DCMAKE_PREFIX_PATH="$prefix" \
    -DRISCV_GCC="$gcc" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure consumer"; }
cmake --build "$work/cbuild" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build consumer"; }
src=$(cd "$(dirname "$0")/../.." && pwd)
if grep -F -e "$src/" -e "$(cd "$build" && pwd)/" "$work/cbuild/CMakeCache.txt" | grep -q .; then
    grep -F -e "$src/" -e "$(cd "$build" && pwd)/" "$work/cbuild/CMakeCache.txt"
    fail "the consumer's configuration refers to the xphmg source or build tree"
fi
"$work/cbuild/decode" | grep -qx "decode: ok" || fail "consumer (shared library)"
"$work/cbuild/decode_static" | grep -qx "decode: ok" || fail "consumer (static library)"
ldd "$work/cbuild/decode" | grep -q "$prefix/$libdir/libxphmg_isa.so" || fail "decode does not use the installed .so"
out=$("$prefix/bin/xphmg-sim" "$work/cbuild/guest.elf"); rc=$?
[ $rc -eq 7 ] && [ "$out" = "guest: hello from the installed kit, CAP.ID present" ] ||
    fail "guest (CMake): exit $rc, output '$out'"

# 4. pkg-config
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
# shellcheck disable=SC2046
cc -o "$work/decode_pc" "$consumer/decode.c" -DSPEC_XML="\"$(pkg-config --variable=specdir xphmg-isa)/xphmg.xml\"" \
    $(pkg-config --cflags --libs xphmg-isa) -Wl,-rpath,"$prefix/$libdir" || fail "pkg-config consumer build"
"$work/decode_pc" | grep -qx "decode: ok" || fail "pkg-config consumer"
td=$(pkg-config --variable=targetdir xphmg-target)
# shellcheck disable=SC2046
"$gcc" $(pkg-config --cflags xphmg-target) --specs=picolibc.specs -O2 -o "$work/guest_pc.elf" \
    "$td/crt0.S" "$td/syscalls.c" "$td/stdio_exit.c" "$consumer/guest.c" \
    $(pkg-config --libs xphmg-target) || fail "pkg-config guest build"
out=$("$(pkg-config --variable=sim xphmg-target)" "$work/guest_pc.elf"); rc=$?
[ $rc -eq 7 ] && [ "$out" = "guest: hello from the installed kit, CAP.ID present" ] ||
    fail "guest (pkg-config): exit $rc, output '$out'"

# 5. installed tools find the installed spec (a spec with one changed description
#    shows which file was read)
sed -i 's|<Description>rd = rs1 + sext(imm12)</Description>|<Description>INSTALLED COPY</Description>|' \
    "$prefix/share/xphmg/xphmg.xml"
env -u XPHMG_SPEC "$prefix/bin/xphmg-isa" -i addi | grep -q "INSTALLED COPY" ||
    fail "installed xphmg-isa does not read the installed spec"
env -u XPHMG_SPEC "$prefix/bin/xphmg-objdump" -d "$work/guest_pc.elf" | grep -q "<main>:" ||
    fail "installed xphmg-objdump"
rm -rf "$work"
echo "sdk_install: ok"
