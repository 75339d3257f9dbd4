# gdb_lib.sh — sourced by the gdb-multiarch sessions (gdb_session.sh, gdb_xmem_watch.sh,
# gdb_attach.sh): find gdb-multiarch, start xphmg-sim with the stub and learn its port,
# run a batch of GDB commands, report a failure with both sides' output.
#   needs: $work (fresh directory made here)
#   start_sim OPTION ELF   OPTION = --gdb-wait or --gdb; sets $simpid and $port
#   connect_cmds ELF       prints the GDB commands that load ELF's symbols and connect
#                          to the stub at $port (a command file starts with them)
#   run_gdb CMDFILE        gdb-multiarch -batch, output in $work/gdb.out
#   run_session CMDFILE    run_gdb, then the simulator's end: $rc its exit status,
#                          $out gdb's output
#   expect PATTERN MESSAGE fails with MESSAGE unless gdb's output has a line matching
#                          PATTERN (grep's basic regular expression)
#   check_clean_end        fails unless the program ran to its end and the simulator
#                          exited 0
#   fail MESSAGE           prints the outputs, kills the simulator, exits 1
gdb=$(command -v gdb-multiarch) || { echo "SKIP: gdb-multiarch not installed (scripts/setup-deps.sh)"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
: >"$work/gdb.out"
simpid=
fail() {
    echo "FAIL: $*"
    echo "--- gdb output"; cat "$work/gdb.out"
    echo "--- simulator stderr"; cat "$work/sim.err"
    [ -n "$simpid" ] && kill "$simpid" 2>/dev/null
    exit 1
}
start_sim() {
    "$sim" "$1" 0 "$2" >"$work/sim.out" 2>"$work/sim.err" &
    simpid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/sim.err")
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || fail "the simulator did not listen"
}
run_gdb() {
    timeout 120 "$gdb" -nx -batch -x "$1" >"$work/gdb.out" 2>&1
}
connect_cmds() {
    cat <<EOC
set pagination off
set confirm off
set architecture riscv:rv64
file $1
target remote 127.0.0.1:$port
EOC
}
run_session() {
    run_gdb "$1"
    wait "$simpid"
    rc=$?
    out=$work/gdb.out
}
expect() {
    grep -q "$1" "$out" || fail "$2"
}
check_clean_end() {
    expect "exited normally" "the program did not run to its end"
    [ $rc -eq 0 ] || fail "simulator exit status $rc"
}
