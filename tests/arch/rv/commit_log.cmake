# commit_log.cmake — runs SIM --log-file twice on ELF and checks that the logs are
# byte-identical and that the first line is what Spike prints for `auipc t0, 0` at
# 0x80000000 in machine mode.
foreach(i 1 2)
  execute_process(COMMAND ${SIM} --log-file ${OUT}.${i} ${ELF} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} exited with ${rc}")
  endif()
endforeach()
file(READ ${OUT}.1 a)
file(READ ${OUT}.2 b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "commit logs of two identical runs differ")
endif()
string(REGEX MATCH "^[^\n]*" first "${a}")
set(want "core   0: 3 0x0000000080000000 (0x00000297) x5  0x0000000080000000")
if(NOT first STREQUAL want)
  message(FATAL_ERROR "first line\n  ${first}\nexpected\n  ${want}")
endif()
# A store line: sd/sw to tohost carries the address and the value as wide as the access.
if(NOT a MATCHES "\\) mem 0x[0-9a-f]+ 0x0000000000000001\n")
  message(FATAL_ERROR "no 8-byte store line for the final tohost write")
endif()
