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
