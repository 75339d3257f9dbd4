# exit_codes.cmake — xphmg-sim's own exit statuses (docs/sim.md): --help 0, bad option
# 125, missing PROG 125, unloadable PROG 126, bad --ram 125.
function(expect rc)
  execute_process(COMMAND ${SIM} ${ARGN} RESULT_VARIABLE got OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT got EQUAL rc)
    message(FATAL_ERROR "xphmg-sim ${ARGN}: exit ${got}, expected ${rc}\n${err}")
  endif()
endfunction()
expect(0 --help)
expect(125 --no-such-option x.elf)
expect(125)
expect(125 --ram 12Q ${CMAKE_CURRENT_LIST_FILE})
expect(125 --max-insns 0 ${CMAKE_CURRENT_LIST_FILE})
expect(125 --ram-base 0x02000000 ${CMAKE_CURRENT_LIST_FILE})
expect(126 ${CMAKE_CURRENT_LIST_FILE})            # not an ELF
expect(126 /nonexistent/prog.elf)
