# stat_determinism.cmake — a guest calling stat/fstat gives the same commit log every
# time (errata P-303: virtual inode numbers and times), each run in a fresh --dir (so
# the host's inode numbers and times differ between runs). With --host-stat the host's
# values reach the guest, and the logs differ: the check can fail.
# -DSIM=xphmg-sim -DELF=host_stat.elf -DWORK=scratch directory
set(hashes "")
foreach(mode virtual host)
  set(hashes_${mode} "")
  foreach(i 1 2 3)
    set(d ${WORK}/${mode}${i})
    file(REMOVE_RECURSE ${d})
    file(MAKE_DIRECTORY ${d})
    set(extra "")
    if(mode STREQUAL "host")
      set(extra --host-stat)
    endif()
    execute_process(COMMAND ${SIM} ${extra} --dir ${d} --log-file ${d}.log ${ELF}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "run ${mode}${i}: exit ${rc}\n${out}${err}")
    endif()
    if(mode STREQUAL "virtual" AND NOT out STREQUAL "file ino 1 mtime 1 -> 2 size 6, dir ino 2\n")
      message(FATAL_ERROR "run ${i}: unexpected stat values: ${out}")
    endif()
    file(SHA256 ${d}.log h)
    list(APPEND hashes_${mode} ${h})
    # Keep the next run's file from reusing this one's inode and time.
    execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 0.05)
  endforeach()
  list(REMOVE_DUPLICATES hashes_${mode})
  list(LENGTH hashes_${mode} n_${mode})
endforeach()
if(NOT n_virtual EQUAL 1)
  message(FATAL_ERROR "3 identical runs gave ${n_virtual} different commit logs")
endif()
if(n_host EQUAL 1)
  message(FATAL_ERROR "--host-stat runs gave identical logs: the host's values did not reach the guest")
endif()
message(STATUS "virtual stat: 3 runs, 1 commit log; host stat: ${n_host} logs")
