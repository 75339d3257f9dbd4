# unit.cmake — how this repository registers its tests (not installed: the SDK's guest
# helpers are cmake/guest.cmake): host unit tests, long runs, and guest programs in the
# simulator's execution modes.

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

# xphmg_guest_test_modes(NAME ELF MODES mode... [SIM_ARGS ...] [LABELS ...] [other
#                        xphmg_guest_test options])
# The same guest program in several of the simulator's execution modes, one test each:
#   plain     NAME, SIM_ARGS as given (the translator is on by default)
#   interp    NAME, interpreting every instruction (--no-jit)
#   traced    NAME.traced, through the commit-log loop (every instruction by its handler)
#   jit       NAME.jit, translated (--jit)
#   lockstep  NAME.lockstep, translated and interpreted side by side (--jit-lockstep)
# LABELS apply to every test; jit and lockstep are labelled jit too.
function(xphmg_guest_test_modes NAME ELF)
  set(one EXPECT_EXIT EXPECT_STDOUT EXPECT_STDOUT_REGEX STDIN TIMEOUT RUNNER EXPECT_FILE
          EXPECT_FILE_CONTENT)
  cmake_parse_arguments(M "" "${one}" "MODES;SIM_ARGS;LABELS" ${ARGN})
  set(pass ${M_UNPARSED_ARGUMENTS})
  foreach(k IN LISTS one)
    if(DEFINED M_${k})
      list(APPEND pass ${k} "${M_${k}}")
    endif()
  endforeach()
  foreach(mode IN LISTS M_MODES)
    set(labels ${M_LABELS})
    if(mode STREQUAL "plain")
      set(name ${NAME})
      set(extra "")
    elseif(mode STREQUAL "interp")
      set(name ${NAME})
      set(extra --no-jit)
    elseif(mode STREQUAL "traced")
      set(name ${NAME}.traced)
      set(extra --log-file /dev/null)
    elseif(mode STREQUAL "jit" OR mode STREQUAL "lockstep")
      set(name ${NAME}.${mode})
      if(mode STREQUAL "jit")
        set(extra --jit)
      else()
        set(extra --jit-lockstep)
      endif()
      if(NOT "jit" IN_LIST labels)
        list(APPEND labels jit)
      endif()
    else()
      message(FATAL_ERROR "xphmg_guest_test_modes(${NAME}): unknown mode ${mode}")
    endif()
    xphmg_guest_test(${name} ${ELF} SIM_ARGS ${M_SIM_ARGS} ${extra} LABELS ${labels} ${pass})
  endforeach()
endfunction()

# xphmg_arch_guest(AREA NAME [PROFILE file] [MODES mode...] [xphmg_guest_test_modes options])
# A self-checking guest program of tests/arch/AREA: NAME.S built as arch_NAME and run as
# arch.AREA.NAME (MODES, default plain) with at most 1,000,000 instructions, under the
# profile file if given, labelled arch.
function(xphmg_arch_guest AREA NAME)
  cmake_parse_arguments(A "" "PROFILE" "MODES;SIM_ARGS" ${ARGN})
  if(NOT A_MODES)
    set(A_MODES plain)
  endif()
  set(profile "")
  if(A_PROFILE)
    set(profile --profile ${A_PROFILE})
  endif()
  xphmg_guest_executable(arch_${NAME} SOURCES ${NAME}.S NOLIBC)
  xphmg_guest_test_modes(arch.${AREA}.${NAME} arch_${NAME} MODES ${A_MODES}
                         SIM_ARGS --max-insns 1000000 ${profile} ${A_SIM_ARGS} LABELS arch
                         ${A_UNPARSED_ARGUMENTS})
endfunction()
