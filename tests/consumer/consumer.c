/* The C header compiles as C99 and the library links: a call with a null descriptor fails with its code. */
#include <stdio.h>
#include <string.h>

#include "cutile_cpp/kernels.h"

int main(void) {
  cutile_cpp_tensor x;
  memset(&x, 0, sizeof x);
  if (cutile_cpp_abi_version() != CUTILE_CPP_ABI_VERSION || cutile_cpp_tensor_size() != (int32_t)sizeof x) {
    fprintf(stderr, "ABI version or descriptor size differs from the header's\n");
    return 1;
  }
  int32_t status = cutile_cpp_softmax(NULL, &x, 0, 0, 0, 0, NULL);
  if (status != CUTILE_CPP_ERROR_NULL_POINTER || strcmp(cutile_cpp_last_error(), "cutile_cpp_softmax: y: the descriptor is null") != 0) {
    fprintf(stderr, "unexpected status %s: %s\n", cutile_cpp_status_name(status), cutile_cpp_last_error());
    return 1;
  }
  printf("consumer_c: %s\n", cutile_cpp_status_name(status));
  return 0;
}
