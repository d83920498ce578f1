# run_step(COMMAND...): runs a command of a CMake test script, printing its
# output; a non-zero exit fails the script with the command and its output.
function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  message("${out}${err}")
endfunction()
