# guest.cmake — build RISC-V guest programs with riscv64-unknown-elf-gcc and run them on
# xphmg-sim as CTest tests.
#
#   xphmg_guest_executable(NAME SOURCES a.c b.S ... [CFLAGS ...] [LDFLAGS ...]
#                          [MARCH rv64gc] [MABI lp64d] [NOLIBC] [DEPENDS file ...])
#     Builds ${CMAKE_CURRENT_BINARY_DIR}/NAME.elf (custom target NAME, part of ALL).
#     Default: picolibc + target/crt0.S + target/syscalls.c + target/link.ld.
#     NOLIBC: bare programs that bring their own _start (e.g. riscv-tests style .S files
#     using target/include/xphmg_test.h); linked with target/link.ld, no C library.
#     target/include, include/ and the generated xphmg_insn.h's directory are always on
#     the include path.
#
#   xphmg_guest_test(NAME ELF [ARGS ...] [EXPECT_EXIT n] [SIM_ARGS ...]
#                    [EXPECT_STDOUT text] [EXPECT_STDOUT_REGEX re] [STDIN file]
#                    [SCRATCH_DIR] [TIMEOUT s] [LABELS ...] [RUNNER program]
#                    [EXPECT_FILE path EXPECT_FILE_CONTENT text])
#     Registers CTest test NAME running `xphmg-sim SIM_ARGS ELF ARGS`. ELF is a target
#     made by xphmg_guest_executable or a path. The test passes when the exit status is
#     EXPECT_EXIT (default 0) and stdout matches. SCRATCH_DIR gives the guest a fresh empty
#     host directory (--dir) per run; EXPECT_FILE (relative to it) must exist afterwards
#     with exactly EXPECT_FILE_CONTENT. RUNNER replaces xphmg-sim (e.g. qemu-system-riscv64
#     with SIM_ARGS -M spike -nographic -bios none -kernel) to cross-check the kit.
#
# When riscv64-unknown-elf-gcc (RISCV_GCC) is missing both functions do nothing and warn
# once: scripts/setup-deps.sh installs it, so CI always builds the guests.

set(XPHMG_TARGET_DIR ${CMAKE_CURRENT_LIST_DIR}/../target)
get_filename_component(XPHMG_TARGET_DIR ${XPHMG_TARGET_DIR} ABSOLUTE)
set(XPHMG_GUEST_RUNNER ${CMAKE_CURRENT_LIST_DIR}/guest-run.cmake)
# An installed SDK (xphmgConfig.cmake) sets XPHMG_SIM and XPHMG_INCLUDE_DIR before
# including this file; in the source tree they are the build's simulator and include/.
if(NOT XPHMG_SIM)
  set(XPHMG_SIM ${CMAKE_BINARY_DIR}/tools/xphmg-sim)
endif()
if(NOT XPHMG_INCLUDE_DIR)
  get_filename_component(XPHMG_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include ABSOLUTE)
endif()

function(_xphmg_guest_available out)
  if(RISCV_GCC AND XPHMG_GUEST_TESTS)
    set(${out} TRUE PARENT_SCOPE)
    return()
  endif()
  get_property(warned GLOBAL PROPERTY XPHMG_GUEST_WARNED)
  if(NOT warned)
    set_property(GLOBAL PROPERTY XPHMG_GUEST_WARNED TRUE)
    message(WARNING "riscv64-unknown-elf-gcc not found (or XPHMG_GUEST_TESTS=OFF): guest "
                    "programs and their tests are skipped. Run scripts/setup-deps.sh.")
  endif()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

function(xphmg_guest_executable NAME)
  _xphmg_guest_available(ok)
  if(NOT ok)
    return()
  endif()
  cmake_parse_arguments(G "NOLIBC" "MARCH;MABI" "SOURCES;CFLAGS;LDFLAGS;DEPENDS" ${ARGN})
  if(NOT G_SOURCES)
    message(FATAL_ERROR "xphmg_guest_executable(${NAME}): no SOURCES")
  endif()
  if(NOT G_MARCH)
    set(G_MARCH rv64gc)
  endif()
  if(NOT G_MABI)
    # Hard-float ABI when the ISA string has D (g implies it): it picks the matching
    # picolibc multilib (rv64imafdc/lp64d for rv64gc).
    if(G_MARCH MATCHES "^rv64([a-z]*g|[a-z]*d)")
      set(G_MABI lp64d)
    else()
      set(G_MABI lp64)
    endif()
  endif()

  set(srcs)
  foreach(s IN LISTS G_SOURCES)
    get_filename_component(abs ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND srcs ${abs})
  endforeach()

  set(out ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.elf)
  set(flags -march=${G_MARCH} -mabi=${G_MABI} -mcmodel=medany -g -O2 -Wall -Wextra
            -I${XPHMG_TARGET_DIR}/include -I${XPHMG_INCLUDE_DIR}
            -T${XPHMG_TARGET_DIR}/link.ld -Wl,--gc-sections)
  file(GLOB hdrs CONFIGURE_DEPENDS ${XPHMG_TARGET_DIR}/include/*.h
       ${XPHMG_INCLUDE_DIR}/xphmg/*.h)
  set(deps ${srcs} ${hdrs} ${XPHMG_TARGET_DIR}/link.ld ${G_DEPENDS})
  # xphmg_insn.h, generated from the ISA XML by tools/gen (XPHMG_GUEST_INCLUDE_DIR).
  if(XPHMG_GUEST_INCLUDE_DIR)
    list(APPEND flags -I${XPHMG_GUEST_INCLUDE_DIR})
  endif()
  if(XPHMG_GUEST_HEADER AND TARGET xphmg_guest_header)
    list(APPEND deps ${XPHMG_GUEST_HEADER})
  endif()
  if(G_NOLIBC)
    list(APPEND flags -nostdlib -nostartfiles -ffreestanding)
    set(extra)
    set(libs -lgcc)
  else()
    # Our crt0 replaces picolibc's (-nostartfiles); picolibc.specs supplies the
    # headers, the multilib library path and -lc. The "release" build of picolibc has
    # word-wise string functions (the default one is size-optimised: a byte-loop memset
    # made malloc(8 MiB) cost 33M instructions instead of 2M).
    list(APPEND flags --specs=picolibc.specs --picolibc-buildtype=release -nostartfiles)
    # stdio_exit.c + --wrap: exit() flushes files the program did not fclose.
    list(APPEND flags -Wl,--wrap=fdopen,--wrap=fclose)
    set(extra ${XPHMG_TARGET_DIR}/crt0.S ${XPHMG_TARGET_DIR}/syscalls.c
              ${XPHMG_TARGET_DIR}/stdio_exit.c)
    list(APPEND deps ${extra})
    set(libs)
  endif()

  add_custom_command(
    OUTPUT ${out}
    COMMAND ${RISCV_GCC} ${flags} ${G_CFLAGS} ${extra} ${srcs} ${G_LDFLAGS} ${libs} -o ${out}
    DEPENDS ${deps}
    COMMENT "Building guest program ${NAME}.elf"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${NAME} ALL DEPENDS ${out})
  if(TARGET xphmg_guest_header)
    add_dependencies(${NAME} xphmg_guest_header)
  endif()
  set_target_properties(${NAME} PROPERTIES XPHMG_ELF ${out})
  # every guest program of the project, for tests that look at all of them (objdump_diff)
  set_property(GLOBAL APPEND PROPERTY XPHMG_GUEST_ELFS ${out})
endfunction()

function(xphmg_guest_test NAME ELF)
  _xphmg_guest_available(ok)
  if(NOT ok)
    return()
  endif()
  cmake_parse_arguments(R "" "RUNNER" "" ${ARGN})
  if(NOT R_RUNNER AND NOT TARGET xphmg-sim AND NOT EXISTS "${XPHMG_SIM}")
    get_property(warned GLOBAL PROPERTY XPHMG_GUEST_SIM_WARNED)
    if(NOT warned)
      set_property(GLOBAL PROPERTY XPHMG_GUEST_SIM_WARNED TRUE)
      message(STATUS "xphmg-sim target not defined yet: guest tests are not registered")
    endif()
    return()
  endif()
  cmake_parse_arguments(G "SCRATCH_DIR"
                        "EXPECT_EXIT;EXPECT_STDOUT;EXPECT_STDOUT_REGEX;STDIN;TIMEOUT;RUNNER;EXPECT_FILE;EXPECT_FILE_CONTENT"
                        "ARGS;SIM_ARGS;LABELS" ${ARGN})
  if(TARGET ${ELF})
    get_target_property(elf ${ELF} XPHMG_ELF)
  else()
    get_filename_component(elf ${ELF} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  if(NOT DEFINED G_EXPECT_EXIT)
    set(G_EXPECT_EXIT 0)
  endif()
  if(NOT G_TIMEOUT)
    set(G_TIMEOUT 60)
  endif()
  set(scratch "")
  if(G_SCRATCH_DIR)
    set(scratch ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.dir)
  endif()
  # The test's parameters go into a generated script instead of -D arguments so that
  # lists, quotes and newlines in expected output survive unchanged.
  set(cfg ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.guest-test.cmake)
  set(body "")
  foreach(v SIM_ARGS ARGS)
    string(APPEND body "set(T_${v}")
    foreach(a IN LISTS G_${v})
      string(REPLACE "\\" "\\\\" a "${a}")
      string(REPLACE "\"" "\\\"" a "${a}")
      string(APPEND body " \"${a}\"")
    endforeach()
    string(APPEND body ")\n")
  endforeach()
  if(DEFINED G_EXPECT_FILE AND NOT G_SCRATCH_DIR)
    message(FATAL_ERROR "xphmg_guest_test(${NAME}): EXPECT_FILE needs SCRATCH_DIR")
  endif()
  foreach(v EXPECT_STDOUT EXPECT_STDOUT_REGEX EXPECT_FILE EXPECT_FILE_CONTENT)
    if(DEFINED G_${v})
      string(REPLACE "\\" "\\\\" val "${G_${v}}")
      string(REPLACE "\"" "\\\"" val "${val}")
      string(REPLACE "$" "\\$" val "${val}")
      string(APPEND body "set(T_${v} \"${val}\")\n")
    endif()
  endforeach()
  set(sim ${XPHMG_SIM})
  if(G_RUNNER)
    set(sim ${G_RUNNER})
  endif()
  string(APPEND body "set(T_SIM \"${sim}\")\nset(T_ELF \"${elf}\")\n"
                     "set(T_EXPECT_EXIT ${G_EXPECT_EXIT})\nset(T_SCRATCH \"${scratch}\")\n"
                     "set(T_STDIN \"${G_STDIN}\")\n")
  file(WRITE ${cfg} "${body}")
  add_test(NAME ${NAME} COMMAND ${CMAKE_COMMAND} -DCONFIG=${cfg} -P ${XPHMG_GUEST_RUNNER})
  set_tests_properties(${NAME} PROPERTIES TIMEOUT ${G_TIMEOUT})
  if(G_LABELS)
    set_tests_properties(${NAME} PROPERTIES LABELS "${G_LABELS}")
  endif()
endfunction()
