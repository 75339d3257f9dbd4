#!/usr/bin/env bash
# objdump_cli — xphmg-objdump's exit codes and messages on bad input:
#   2 usage (no -d, no file, unknown option), 1 bad ELF (message names the file),
#   3 spec error (message names the spec), never a crash (>= 128).
#   objdump_cli.sh XPHMG_OBJDUMP WORK_DIR [-x SPEC]...
set -u
xod=$1 work=$2
shift 2
mkdir -p "$work"
. "$(dirname "$0")/../cli_expect.sh"
printf 'not an elf at all' >"$work/text.elf"
head -c 20 /bin/sh >"$work/trunc.elf" 2>/dev/null || printf '\177ELF\002\001\001' >"$work/trunc.elf"
printf '<ISA><broken>' >"$work/bad.xml"
expect 2 usage -- "$xod" "$@"
expect 2 usage -- "$xod" "$@" "$work/text.elf"
expect 2 "unknown option" -- "$xod" -d --frobnicate "$work/text.elf"
expect 2 "no-aliases" -- "$xod" -d -M numeric "$work/text.elf"
expect 1 "text.elf" -- "$xod" "$@" -d "$work/text.elf"
expect 1 "trunc.elf" -- "$xod" "$@" -d "$work/trunc.elf"
expect 1 "missing.elf" -- "$xod" "$@" -d "$work/missing.elf"
expect 3 "bad.xml" -- "$xod" -x "$work/bad.xml" -d "$work/text.elf"
expect 3 "nope.xml" -- env XPHMG_SPEC="$work/nope.xml" "$xod" -d "$work/text.elf"
cli_done objdump_cli
