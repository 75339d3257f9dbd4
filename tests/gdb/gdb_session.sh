#!/usr/bin/env bash
# gdb_session — gdb-multiarch drives xphmg-sim --gdb-wait through guest.c in batch mode:
# target remote, break at a function, step, print a variable, watch a store (hardware
# watchpoint), read CAP.PREC.STAT by name, monitor commands, continue to the exit.
# Before that it steps two CAP.XMEM writes one instruction at a time: the debugger sees
# the XMEM state latched at each instruction boundary (XMEM 11.1.10). REQ: XMEM-141
# Expected values are the program's arithmetic (1+4+9+16+25 = 55) and the reset value
# of cap_prec_stat read from the spec XML with xmllint, never from the stub.
#
#   gdb_session.sh XPHMG_SIM GUEST_ELF SPEC_XML WORK
# Exit 0 pass, 1 fail, 77 skipped (no gdb-multiarch).
set -u
sim=$1 elf=$2 spec=$3 work=$4
. "$(dirname "$0")/gdb_lib.sh"
reset=$(xmllint --xpath 'string(//Register[Name="cap_prec_stat"]/ResetValue)' "$spec")
[ -n "$reset" ] || { echo "FAIL: no cap_prec_stat in $spec"; exit 1; }
dreset=$(xmllint --xpath 'string(//Register[Name="cap_xmem_descpol"]/ResetValue)' "$spec")
[ -n "$dreset" ] || { echo "FAIL: no cap_xmem_descpol in $spec"; exit 1; }
dreset=$(printf '0x%x' "0x$dreset")
start_sim --gdb-wait "$elf"
connect_cmds "$elf" >"$work/cmds"
cat >>"$work/cmds" <<EOC
break *xmem_two_writes
continue
print/x \$cap_xmem_dom
print/x \$cap_xmem_descpol
stepi
print/x \$cap_xmem_dom
print/x \$cap_xmem_descpol
stepi
print/x \$cap_xmem_dom
print/x \$cap_xmem_descpol
break compute
continue
next
next
print n
print/x \$pc == (long)&compute
watch counter
continue
print counter
print/x \$cap_prec_stat
monitor cap
monitor pmask
delete
continue
EOC
run_session "$work/cmds"
# XMEM state per instruction boundary (XMEM 11.1.10): reset values (DOM 0, DESCPOL from
# the XML), then each csrw visible after exactly its own step and not before
expect '^\$1 = 0x0$' "cap_xmem_dom before the first write"
expect "^\\\$2 = $dreset\$" "cap_xmem_descpol is not the reset value $dreset"
expect '^\$3 = 0x2$' "cap_xmem_dom after one step"
expect "^\\\$4 = $dreset\$" "cap_xmem_descpol changed before its own instruction"
expect '^\$5 = 0x2$' "cap_xmem_dom after two steps"
expect '^\$6 = 0x44$' "cap_xmem_descpol after two steps"
expect "Breakpoint 2, compute (n=5)" "no stop at the breakpoint in compute"
expect '^\$7 = 5$' "print n after two steps"
expect '^\$8 = 0x0$' "pc moved from compute's first instruction after next"
expect "Hardware watchpoint 3: counter" "no hardware watchpoint"
expect "New value = 55" "watchpoint did not report the store of 55"
expect '^\$9 = 55$' "print counter after the watchpoint"
want=$(printf '0x%x' "0x$reset")
expect "^\\\$10 = $want\$" "cap_prec_stat is not the reset value $want"
expect "cap_prec_stat .*0x7d2 = " "monitor cap does not show cap_prec_stat"
grep -qi "pmask" "$out" || fail "monitor pmask"
check_clean_end
grep -qx "result 55" "$work/sim.out" || fail "guest output"
echo "gdb_session: ok"
