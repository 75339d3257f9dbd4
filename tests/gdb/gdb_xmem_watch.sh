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
expect "Hardware watchpoint 1: stg_target" "no watchpoint on stg_target"
expect "New value = 23130" "xmem.stg's store of 0x5a5a not reported"
expect '^\$1 = 0x602b$' "the stop after the store is not right after xmem.stg"
expect "Hardware read watchpoint 2: ldg_source" "xmem.ldg's read not reported"
expect "Value = 4660" "read watchpoint value"
expect '^\$2 = 0x502b$' "the read stop is not right after xmem.ldg"
expect "New value = 11259375" "xlds.cpy's copy into cpy_target not reported"
expect '^\$3 = 0x402b$' "the stop is not right after xlds.cpy"
expect "New value = 44" "the SVMEM scatter's store into svm_table[0] not reported"
expect '^\$4 = 0x105b$' "the stop is not right after xmem.svm"
check_clean_end
echo "gdb_xmem_watch: ok"
