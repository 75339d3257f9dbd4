# cli_expect.sh — sourced by the command-line contract tests (gen_cli.sh, objdump_cli.sh,
# bvh_cli.sh): exit codes and messages of a tool on good and bad input.
#   needs: $work (an existing directory for the outputs)
#   expect_in              where expect looks for PATTERN: "err" (default) or "out err"
#   expect CODE PATTERN -- command...
#                          runs the command; a failure (counted in $fails, the outputs
#                          printed) unless it exits CODE and PATTERN (grep's basic regular
#                          expression; empty: not checked) is in its output
#   cli_done NAME          "NAME: ok" when nothing failed; exits 1 when something did
fails=0
expect_in=err
expect() {
    local code=$1 pat=$2 f files=()
    shift 3
    "$@" >"$work/out" 2>"$work/err"
    local rc=$?
    for f in $expect_in; do files+=("$work/$f"); done
    if [ "$rc" -ne "$code" ] || { [ -n "$pat" ] && ! grep -q -- "$pat" "${files[@]}"; }; then
        echo "FAIL: $* -> exit $rc (want $code, '$pat'), $expect_in:"
        cat "${files[@]}"
        fails=$((fails + 1))
    fi
}
cli_done() {
    [ "$fails" -eq 0 ] && echo "$1: ok"
    exit $((fails > 0))
}
