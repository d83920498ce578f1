# Runs MpiAbortProgram under mpirun for one collective (-DCOLLECTIVE=...):
# the job must end (no hang), exit non-zero, and print rank 2's error.
execute_process(
  COMMAND ${MPIRUN} -np 4 --allow-run-as-root --oversubscribe --mca btl self,vader
          --mca oob_tcp_if_include lo ${PROGRAM} ${COLLECTIVE}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(exit_code EQUAL 0 OR NOT exit_code MATCHES "^[0-9]+$")
  message(FATAL_ERROR "expected a non-zero exit, got '${exit_code}'\n${out}\n${err}")
endif()
string(FIND "${out}${err}" "shardgen: rank 2: device 2 failed: device 2 failed on purpose before ${COLLECTIVE}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "rank 2's error is missing from the output:\n${out}\n${err}")
endif()
