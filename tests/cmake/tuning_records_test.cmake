# cmake/tuning_records.cmake on records written as `cutile-ops tune` writes them, and on a malformed one.
#   cmake -DSOURCE=<repo> -DWORK=<dir> [-DMALFORMED=1] -P tuning_records_test.cmake
include(${SOURCE}/cmake/tuning_records.cmake)
file(MAKE_DIRECTORY ${WORK})
if(MALFORMED)
  file(WRITE ${WORK}/bad.jsonl "{\"op\": \"softmax\", \"gpu\": \"sm_90\", \"tileiras\": \"13.4.92\", \"bucket\": \"N=8\", \"choice\": {}, \"us\": 1, \"default_us\": 2}\n")
  cutile_tuning_records(${WORK}/bad.cpp ${WORK}/bad.jsonl)  # no "kernels": a fatal error naming the line
  return()
endif()
file(WRITE ${WORK}/softmax.jsonl
  "{\"op\": \"softmax\", \"gpu\": \"sm_90\", \"tileiras\": \"13.4.92\", \"kernels\": \"00ff00ff00ff00ff\", \"bucket\": \"M=4096 N=8192 E=bf16 use_tma=1\", \"choice\": {\"occupancy\": 8}, \"us\": 8.25, \"default_us\": 17.5, \"date\": \"2026-12-04\"}\n"
  "\n"
  "{\"op\": \"softmax\", \"gpu\": \"sm_90\", \"tileiras\": \"13.4.92\", \"kernels\": \"1111222233334444\", \"bucket\": \"M=4096 N=256 E=f32\", \"choice\": {}, \"us\": 3.5, \"default_us\": 3.5, \"date\": \"2026-12-04\"}\n")
cutile_tuning_records(${WORK}/records.cpp ${WORK}/softmax.jsonl)
file(READ ${WORK}/records.cpp text)
foreach(expected
    "{\"softmax\", \"sm_90\", \"13.4.92\", \"00ff00ff00ff00ff\", \"M=4096 N=8192 E=bf16 use_tma=1\", {{{\"occupancy\", 8}, }}, 8.25, 17.5},  // ${WORK}/softmax.jsonl:1"
    "{\"softmax\", \"sm_90\", \"13.4.92\", \"1111222233334444\", \"M=4096 N=256 E=f32\", {{}}, 3.5, 3.5},  // ${WORK}/softmax.jsonl:3"
    "TuningRegistration registration{std::span(records, std::size(records) - 1)}")
  string(FIND "${text}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the generated records lack\n  ${expected}\nthey are:\n${text}")
  endif()
endforeach()
message(STATUS "tuning records generated as expected")
