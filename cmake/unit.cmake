# xphmg_cmocka_test(NAME EXE [SOURCES file...] [LIBS lib...] [ARGS arg...])
# A host unit test: executable EXE from SOURCES (default EXE.c) linked with LIBS and cmocka,
# run as CTest test NAME with ARGS.
function(xphmg_cmocka_test NAME EXE)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;ARGS" ${ARGN})
  if(NOT T_SOURCES)
    set(T_SOURCES ${EXE}.c)
  endif()
  add_executable(${EXE} ${T_SOURCES})
  target_link_libraries(${EXE} PRIVATE ${T_LIBS} PkgConfig::CMOCKA)
  add_test(NAME ${NAME} COMMAND ${EXE} ${T_ARGS})
endfunction()

# xphmg_long_run(TARGET TEST EXE [ARGS arg...] [TIMEOUT seconds] [COMMENT text])
# A long run of test program EXE with ARGS, kept out of the default test run: the build
# target TARGET (`cmake --build build --target TARGET`) and, with XPHMG_LONG_TESTS, the
# CTest test TEST labelled long (README "Long runs").
function(xphmg_long_run TARGET TEST EXE)
  cmake_parse_arguments(L "" "TIMEOUT;COMMENT" "ARGS" ${ARGN})
  add_custom_target(${TARGET}
    COMMAND ${EXE} ${L_ARGS}
    DEPENDS ${EXE}
    USES_TERMINAL
    COMMENT "${L_COMMENT}")
  if(XPHMG_LONG_TESTS)
    add_test(NAME ${TEST} COMMAND ${EXE} ${L_ARGS})
    set_tests_properties(${TEST} PROPERTIES LABELS long TIMEOUT ${L_TIMEOUT})
  endif()
endfunction()
