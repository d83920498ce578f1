# Runs MpiAbortProgram under mpirun (-DRANKS=4 or 2: one device per rank, or
# 2 ranks x 2 threads) for one collective (-DCOLLECTIVE=...): the job must
# end (no hang), exit non-zero, and print device 2's error with its rank;
# with -DMODE=stall, the watchdog's timeout message instead.
if(NOT RANKS)
  set(RANKS 4)
endif()
execute_process(
  COMMAND ${MPIRUN} -np ${RANKS} --allow-run-as-root --oversubscribe --mca btl self,vader
          --mca oob_tcp_if_include lo ${PROGRAM} ${COLLECTIVE} ${MODE}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 50)
if(exit_code EQUAL 0 OR NOT exit_code MATCHES "^[0-9]+$")
  message(FATAL_ERROR "expected a non-zero exit, got '${exit_code}'\n${out}\n${err}")
endif()
math(EXPR rank "2 * ${RANKS} / 4") # the rank running device 2
if(MODE STREQUAL "stall")
  set(expected "the run did not finish within the timeout of 1 s")
elseif(COLLECTIVE STREQUAL "exchange_mismatch")
  set(expected "shardgen: rank ${rank}: device 2 failed: exchange: position 0 sends a different number of bytes than position 2 expects")
else()
  set(expected "shardgen: rank ${rank}: device 2 failed: device 2 failed on purpose before ${COLLECTIVE}")
endif()
string(FIND "${out}${err}" "${expected}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "'${expected}' is missing from the output:\n${out}\n${err}")
endif()
