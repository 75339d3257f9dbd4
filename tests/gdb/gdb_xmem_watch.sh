#!/usr/bin/env bash
# gdb_xmem_watch — GDB watchpoints are hit by XPHMG memory instructions, not only by
# base loads and stores: gdb-multiarch watches four variables of xmem_watch.c that only
# an XPHMG instruction touches (xmem.stg writes, xmem.ldg reads, xlds.cpy writes, an
# SVMEM scatter writes) and must stop right after that instruction each time: the word
# before the stop pc has the instruction's custom opcode (0x2b CUSTOM-1, 0x5b CUSTOM-2).
# Expected values are the program's constants (0x5a5a, 0x1234, 0xabcdef, 44).
#
#   gdb_xmem_watch.sh XPHMG_SIM GUEST_ELF WORK
# Exit 0 pass, 1 fail, 77 skipped (no gdb-multiarch).
set -u
sim=$1 elf=$2 work=$3
. "$(dirname "$0")/gdb_lib.sh"
start_sim --gdb-wait "$elf"
connect_cmds "$elf" >"$work/cmds"
cat >>"$work/cmds" <<EOC
watch stg_target
continue
print/x *(unsigned int *)(\$pc - 4) & 0x707f
delete
rwatch ldg_source
continue
print/x *(unsigned int *)(\$pc - 4) & 0x707f
delete
watch cpy_target
continue
print/x *(unsigned int *)(\$pc - 4) & 0x707f
delete
watch svm_table[0]
continue
print/x *(unsigned int *)(\$pc - 4) & 0x707f
delete
continue
EOC
run_session "$work/cmds"
# opcode | funct3 << 12 of the instruction that hit: xmem.stg 6, xmem.ldg 5, xlds.cpy 4
# (CUSTOM-1), xmem.svm 1 (CUSTOM-2)
grep -q "Hardware watchpoint 1: stg_target" "$out" || fail "no watchpoint on stg_target"
grep -q "New value = 23130" "$out" || fail "xmem.stg's store of 0x5a5a not reported"
grep -q '^\$1 = 0x602b$' "$out" || fail "the stop after the store is not right after xmem.stg"
grep -q "Hardware read watchpoint 2: ldg_source" "$out" || fail "xmem.ldg's read not reported"
grep -q "Value = 4660" "$out" || fail "read watchpoint value"
grep -q '^\$2 = 0x502b$' "$out" || fail "the read stop is not right after xmem.ldg"
grep -q "New value = 11259375" "$out" || fail "xlds.cpy's copy into cpy_target not reported"
grep -q '^\$3 = 0x402b$' "$out" || fail "the stop is not right after xlds.cpy"
grep -q "New value = 44" "$out" || fail "the SVMEM scatter's store into svm_table[0] not reported"
grep -q '^\$4 = 0x105b$' "$out" || fail "the stop is not right after xmem.svm"
check_clean_end
echo "gdb_xmem_watch: ok"
