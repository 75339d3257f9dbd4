# expect_exit.cmake — runs SIM ELF and fails unless the exit status is EXPECT.
execute_process(COMMAND ${SIM} --max-insns 10000000 ${ELF} RESULT_VARIABLE rc)
if(NOT rc STREQUAL "${EXPECT}")
  message(FATAL_ERROR "${ELF}: exit status ${rc}, expected ${EXPECT}")
endif()
