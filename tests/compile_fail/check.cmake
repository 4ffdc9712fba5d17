# Runs the compiler on SOURCE and passes only if compilation fails with the text of the file's
# `// expect-error:` line in the diagnostics.
file(STRINGS ${SOURCE} expect_line REGEX "^// expect-error: ")
string(REPLACE "// expect-error: " "" expected "${expect_line}")
separate_arguments(include_flags UNIX_COMMAND "${INCLUDES}")
execute_process(COMMAND ${COMPILER} -std=c++20 -fsyntax-only ${include_flags} ${SOURCE}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
string(FIND "${out}${err}" "${expected}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "${SOURCE} failed to compile, but without \"${expected}\":\n${err}")
endif()
