# check.cmake — the test example_raytrace: the host reference (raytrace_ref, double
# precision brute force) gives the expected output, the guest program on xphmg-sim the
# actual one; they must be identical and both programs must exit 0.
#   cmake -DSIM=xphmg-sim -DELF=raytrace.elf -DREF=raytrace_ref -DSCENE=scene.xbvh -P check.cmake
execute_process(COMMAND ${REF} ${SCENE} RESULT_VARIABLE ref_rc OUTPUT_VARIABLE expected
                ERROR_VARIABLE ref_err)
if(NOT ref_rc EQUAL 0)
  message(FATAL_ERROR "raytrace_ref failed (${ref_rc}):\n${ref_err}")
endif()
execute_process(COMMAND ${SIM} ${ELF} RESULT_VARIABLE sim_rc OUTPUT_VARIABLE actual
                ERROR_VARIABLE sim_err)
if(NOT expected STREQUAL actual)
  message(FATAL_ERROR "guest output differs from the host reference\n--- expected\n"
                      "${expected}--- actual (exit ${sim_rc})\n${actual}${sim_err}")
endif()
if(NOT sim_rc EQUAL 0)
  message(FATAL_ERROR "guest exited with ${sim_rc}:\n${sim_err}")
endif()
message(STATUS "guest output matches the host reference:\n${actual}")
