#!/bin/sh
# expect_invalid.sh XMLLINT XSD FILE
# Passes only when xmllint reports a schema validity error for FILE (exit status 3 and a
# "Schemas validity error" message): a missing file, a parse error or a broken XSD fail.
xmllint=$1 xsd=$2 file=$3
out=$("$xmllint" --noout --schema "$xsd" "$file" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 3 ]; then
    echo "expect_invalid: xmllint exit status $rc, expected 3 (validation error)"
    exit 1
fi
case "$out" in
*"Schemas validity error"*) exit 0 ;;
*) echo "expect_invalid: no schema validity error reported"; exit 1 ;;
esac
