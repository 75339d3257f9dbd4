#!/usr/bin/env bash
# gdb_attach — gdb-multiarch attaches to a guest that is already running (`--gdb`, not
# `--gdb-wait`): spin.c counts in a loop; the debugger connects (which stops it), reads
# the counter (> 0: it ran before the attach), continues, interrupts it with Ctrl-C
# (SIGINT to gdb, sent to the stub as 0x03), reads the counter again (larger: it ran
# after the continue) and kills it (xphmg-sim exits with 122).
#
#   gdb_attach.sh XPHMG_SIM SPIN_ELF WORK
# Exit 0 pass, 1 fail, 77 skipped (no gdb-multiarch).
set -u
sim=$1 elf=$2 work=$3
. "$(dirname "$0")/gdb_lib.sh"
start_sim --gdb "$elf"
sleep 0.3 # the guest runs with nobody attached
connect_cmds "$elf" >"$work/cmds"
cat >>"$work/cmds" <<EOC
print spins
set debug remote 1
continue
set debug remote 0
print spins
kill
EOC
# not run_gdb: the SIGINT must reach gdb once. timeout passes a signal on to its command,
# and without --foreground also to its whole process group, gdb again: a second SIGINT
# arriving while gdb handles the stop aborted its command file ("Quit"), gdb detached
# and the guest ran on (a flaky failure under load).
timeout --foreground 120 "$gdb" -nx -batch -x "$work/cmds" >"$work/gdb.out" 2>&1 &
gdbpid=$!
out=$work/gdb.out
# Ctrl-C once gdb has sent the continue (its remote log shows the packet): a SIGINT
# before that would abort gdb's command file instead of stopping the guest
for _ in $(seq 600); do
    grep -q 'Sending packet: \$vCont;c\|Sending packet: \$c#' "$out" && break
    sleep 0.05
done
expect '^\$1 = ' "gdb did not read the counter after attaching"
expect 'Sending packet: \$vCont;c\|Sending packet: \$c#' "gdb did not continue"
sleep 0.3
kill -INT "$gdbpid"
wait "$gdbpid"
for _ in $(seq 100); do # the kill ends the simulator; do not wait for it forever
    kill -0 "$simpid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$simpid" 2>/dev/null && fail "the simulator still runs after gdb ended"
wait "$simpid"
rc=$?
first=$(sed -n 's/^\$1 = \([0-9]*\)$/\1/p' "$out")
second=$(sed -n 's/^\$2 = \([0-9]*\)$/\1/p' "$out")
[ -n "$first" ] && [ "$first" -gt 0 ] || fail "the guest had not run before the attach (spins = '$first')"
expect "Program received signal SIGINT" "Ctrl-C did not stop the guest"
[ -n "$second" ] && [ "$second" -gt "$first" ] || fail "the guest did not run after continue ($first, then '$second')"
expect "killed" "kill"
[ $rc -eq 122 ] || fail "simulator exit status $rc after kill (want 122)"
echo "gdb_attach: ok (spins $first at attach, $second at the interrupt)"
