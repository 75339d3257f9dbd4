# budget_units.cmake — the exact work-unit charge of a program whose units are all of one
# kind (errata P-300: one unit per 8 bytes an xswz moves). -DSIM, -DELF, -DMODE (the
# budget.c mode), -DUNITS (the expected charge, computed by the caller from the program's
# constants). A charge off by any factor (per 9 bytes, per 4) changes the number.
execute_process(COMMAND ${SIM} --stats ${ELF} ${MODE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "done\n")
  message(FATAL_ERROR "${MODE}: exit ${rc}, stdout '${out}'\n${err}")
endif()
if(NOT err MATCHES " ${UNITS} work units charged")
  message(FATAL_ERROR "${MODE}: expected ${UNITS} work units charged:\n${err}")
endif()
