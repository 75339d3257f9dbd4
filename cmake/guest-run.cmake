# guest-run.cmake — runs one guest test (cmake -DCONFIG=file -P guest-run.cmake).
# CONFIG is written by xphmg_guest_test() in guest.cmake and sets T_SIM, T_ELF, T_ARGS,
# T_SIM_ARGS, T_EXPECT_EXIT, T_EXPECT_STDOUT, T_EXPECT_STDOUT_REGEX, T_SCRATCH, T_STDIN,
# T_EXPECT_FILE, T_EXPECT_FILE_CONTENT.
include(${CONFIG})

if(NOT EXISTS "${T_SIM}")
  message(FATAL_ERROR "simulator not built: ${T_SIM}")
endif()
if(NOT EXISTS "${T_ELF}")
  message(FATAL_ERROR "guest program not built: ${T_ELF}")
endif()

set(dir_args)
if(T_SCRATCH)
  # A fresh directory per run: tests that create files must not see a previous run's.
  file(REMOVE_RECURSE "${T_SCRATCH}")
  file(MAKE_DIRECTORY "${T_SCRATCH}")
  set(dir_args --dir "${T_SCRATCH}")
endif()
set(in /dev/null)
if(T_STDIN)
  set(in "${T_STDIN}")
endif()

execute_process(
  COMMAND "${T_SIM}" ${dir_args} ${T_SIM_ARGS} "${T_ELF}" ${T_ARGS}
  INPUT_FILE "${in}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)

set(fail "")
if(NOT "${rc}" STREQUAL "${T_EXPECT_EXIT}")
  string(APPEND fail "exit status ${rc}, expected ${T_EXPECT_EXIT}\n")
endif()
if(DEFINED T_EXPECT_STDOUT AND NOT "${out}" STREQUAL "${T_EXPECT_STDOUT}")
  string(APPEND fail "stdout differs\n--- expected\n${T_EXPECT_STDOUT}\n--- got\n${out}\n---\n")
endif()
if(DEFINED T_EXPECT_STDOUT_REGEX AND NOT "${out}" MATCHES "${T_EXPECT_STDOUT_REGEX}")
  string(APPEND fail "stdout does not match /${T_EXPECT_STDOUT_REGEX}/\n--- got\n${out}\n---\n")
endif()
if(DEFINED T_EXPECT_FILE)
  set(path "${T_SCRATCH}/${T_EXPECT_FILE}")
  if(NOT EXISTS "${path}")
    string(APPEND fail "file ${T_EXPECT_FILE} was not created in --dir\n")
  else()
    file(READ "${path}" content)
    if(NOT "${content}" STREQUAL "${T_EXPECT_FILE_CONTENT}")
      string(APPEND fail "file ${T_EXPECT_FILE} differs\n--- expected\n${T_EXPECT_FILE_CONTENT}\n--- got\n${content}\n---\n")
    endif()
  endif()
endif()

if(fail)
  message("command: ${T_SIM} ${dir_args} ${T_SIM_ARGS} ${T_ELF} ${T_ARGS}")
  message("stderr:\n${err}")
  message(FATAL_ERROR "${fail}")
endif()
message("ok: exit ${rc}")
