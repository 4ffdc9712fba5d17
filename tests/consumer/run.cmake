# Installs the build at BUILD_DIR into a scratch prefix, then configures, builds and runs the consumer
# project at SOURCE_DIR against it with find_package(cutile).
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    # An install that stops midway is most often a full disk: say how much room there is.
    execute_process(COMMAND df -h ${WORK_DIR} OUTPUT_VARIABLE room ERROR_QUIET)
    message(FATAL_ERROR "${ARGN}\nfailed (${result}):\n${output}\n${room}")
  endif()
  message("${output}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer_c)
run(${WORK_DIR}/build/consumer_cpp)
# The prefix holds a copy of every library (the kernel library's is the largest): the tiers that follow need the disk.
file(REMOVE_RECURSE ${WORK_DIR})
