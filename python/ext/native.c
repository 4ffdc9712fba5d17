/* cutile_cpp._native: calls the C library's ops from Python in one C call: the tensors' descriptors are
 * packed here and cutile_cpp_call runs, with no Python objects made per descriptor. Packing three
 * descriptors in Python costs more host time than the whole C ABI call; here it is a handful of attribute
 * reads per tensor. The descriptor struct comes from the C header itself, so the layout has one source.
 * torch is reached only through its Python attributes (dtype, is_cuda, is_cpu, get_device(),
 * data_ptr(), shape, stride()): the module links neither libtorch nor a torch ABI.
 *
 *   configure(dtype_codes: dict[torch.dtype, int], call: int, output_shapes: int)
 *       once: the cutile_cpp_dtype code of each torch.dtype, and the addresses of cutile_cpp_call and
 *       cutile_cpp_output_shapes in the loaded library
 *   call(op, tensors, names, scalars, kinds, device_id, stream) -> int
 *       cutile_cpp_call(op, ...) with the descriptors of `tensors` (None: an absent tensor; a tuple of
 *       tensors: a list argument, its elements' descriptors and their count) and the parameters
 *       `scalars`, `kinds[i]` 'r' for a real (double) and 'i' for an integer; returns the status
 *   output_shapes(op, tensors, names, scalars, kinds, count, with_data) -> (status, [(dtype, shape), ...])
 *       cutile_cpp_output_shapes, `count` outputs (a list output's elements each one); without data,
 *       tensors' memory is not read (fake tensors have none)
 * Errors name the argument: TypeError for a dtype without a code, ValueError for another device or too
 * many dims.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "cutile_cpp/kernels.h"

#define MAX_TENSORS 16 /* tensor arguments of an op, and descriptors held inline */
#define MAX_SCALARS 16

typedef int32_t (*call_fn)(int32_t, const cutile_cpp_tensor* const*, const int64_t*, int32_t, const cutile_cpp_scalar*,
                           int32_t, int32_t, void*);
typedef int32_t (*output_shapes_fn)(int32_t, const cutile_cpp_tensor* const*, const int64_t*, int32_t,
                                    const cutile_cpp_scalar*, int32_t, cutile_cpp_tensor*, int32_t);

static PyObject* dtype_codes; /* dict: torch.dtype -> cutile_cpp_dtype code */
static call_fn library_call;
static output_shapes_fn library_output_shapes;
static PyObject *s_dtype, *s_is_cuda, *s_is_cpu, *s_get_device, *s_data_ptr, *s_shape, *s_stride, *s_device;

static PyObject* call_method(PyObject* object, PyObject* name) {
  PyObject* args[] = {object};
  return PyObject_VectorcallMethod(name, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* An int attribute or method result, or -1 with an exception set. */
static long long long_of(PyObject* value) {
  if (!value) return -1;
  long long result = PyLong_AsLongLong(value);
  Py_DECREF(value);
  return result;
}

/* 1 when the bool attribute `name` is true, 0 when false, -1 with an exception set. */
static int flag(PyObject* object, PyObject* name) {
  PyObject* value = PyObject_GetAttr(object, name);
  if (!value) return -1;
  int result = PyObject_IsTrue(value);
  Py_DECREF(value);
  return result;
}

/* Copies the ints of the tuple `values` (torch.Size or the tuple stride() returns), which must have
 * `ndim` of them. */
static int copy_ints(PyObject* values, int64_t* out, Py_ssize_t ndim, const char* name, const char* what) {
  if (!values) return -1;
  int ok = PyTuple_Check(values) && PyTuple_GET_SIZE(values) == ndim;
  for (int i = 0; ok && i < ndim; ++i) {
    out[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(values, i));
    ok = !(out[i] == -1 && PyErr_Occurred());
  }
  Py_DECREF(values);
  if (!ok && !PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: its %s is not a tuple of %zd ints", name, what, ndim);
  return ok ? 0 : -1;
}

/* The descriptor of `tensor`, for messages named `name` (or "name[element]" for a list's element). */
static int fill(cutile_cpp_tensor* d, PyObject* tensor, const char* base, Py_ssize_t element, int with_data) {
  char name[256];
  if (element < 0)
    snprintf(name, sizeof name, "%s", base);
  else
    snprintf(name, sizeof name, "%s[%zd]", base, element);
  memset(d, 0, sizeof *d);
  PyObject* dtype = PyObject_GetAttr(tensor, s_dtype);
  if (!dtype) return -1;
  PyObject* code = PyDict_GetItemWithError(dtype_codes, dtype); /* borrowed */
  if (!code) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: dtype %R has no cutile_cpp dtype code", name, dtype);
    Py_DECREF(dtype);
    return -1;
  }
  Py_DECREF(dtype);
  d->dtype = (int32_t)PyLong_AsLong(code);
  int is_cuda = flag(tensor, s_is_cuda);
  if (is_cuda < 0) return -1;
  if (is_cuda) {
    d->device_type = CUTILE_CPP_DEVICE_CUDA;
    long long index = long_of(call_method(tensor, s_get_device));
    if (index < 0) return -1;
    d->device_id = (int32_t)index;
  } else {
    int is_cpu = flag(tensor, s_is_cpu);
    if (is_cpu < 0) return -1;
    if (!is_cpu && with_data) {
      PyObject* device = PyObject_GetAttr(tensor, s_device);
      if (device) {
        PyErr_Format(PyExc_ValueError, "%s: tensors on %S cannot cross the C ABI (CUDA or CPU only)", name, device);
        Py_DECREF(device);
      }
      return -1;
    }
    d->device_type = CUTILE_CPP_DEVICE_CPU;
  }
  PyObject* shape = PyObject_GetAttr(tensor, s_shape);
  if (!shape) return -1;
  const Py_ssize_t ndim = PyTuple_Check(shape) ? PyTuple_GET_SIZE(shape) : 0;
  if (ndim > CUTILE_CPP_MAX_DIMS) {
    PyErr_Format(PyExc_ValueError, "%s: %zd dims exceed the C ABI's %d", name, ndim, CUTILE_CPP_MAX_DIMS);
    Py_DECREF(shape);
    return -1;
  }
  d->ndim = (int32_t)ndim;
  if (copy_ints(shape, d->shape, ndim, name, "shape") < 0) return -1;
  if (copy_ints(call_method(tensor, s_stride), d->strides, ndim, name, "stride()") < 0) return -1;
  if (!with_data) return 0;
  PyObject* address = call_method(tensor, s_data_ptr);
  if (!address) return -1;
  d->data = PyLong_AsVoidPtr(address);
  Py_DECREF(address);
  return PyErr_Occurred() ? -1 : 0;
}

/* The arguments shared by call and output_shapes, unpacked into C. Descriptors beyond MAX_TENSORS (long
 * lists) are allocated: release() frees them. */
struct arguments {
  cutile_cpp_tensor inline_descriptors[MAX_TENSORS];
  cutile_cpp_tensor* descriptors;
  const cutile_cpp_tensor* pointers[MAX_TENSORS];
  int64_t counts[MAX_TENSORS];
  int lists; /* whether an argument is a list: only then are the counts passed */
  cutile_cpp_scalar scalars[MAX_SCALARS];
  Py_ssize_t tensor_count, scalar_count;
};

static void release(struct arguments* a) {
  if (a->descriptors != a->inline_descriptors) PyMem_Free(a->descriptors);
  a->descriptors = a->inline_descriptors;
}

/* A list argument: a tuple of tensors (immutable, so that no attribute read while packing can shrink it). */
static int is_list(PyObject* item) { return PyTuple_Check(item); }

/* Fills `a`; on failure (-1, an exception set) nothing is left to release. */
static int unpack(struct arguments* a, PyObject* tensors, PyObject* names, PyObject* scalars, PyObject* kinds,
                  int with_data) {
  a->descriptors = a->inline_descriptors;
  a->lists = 0;
  if (!dtype_codes || !library_call) {
    PyErr_SetString(PyExc_RuntimeError, "cutile_cpp._native is used before configure()");
    return -1;
  }
  if (!PyTuple_Check(tensors) || !PyTuple_Check(names) || !PyTuple_Check(scalars) || !PyBytes_Check(kinds)) {
    PyErr_SetString(PyExc_TypeError, "tensors, names and scalars must be tuples and kinds bytes");
    return -1;
  }
  a->tensor_count = PyTuple_GET_SIZE(tensors);
  a->scalar_count = PyTuple_GET_SIZE(scalars);
  if (a->tensor_count > MAX_TENSORS || a->scalar_count > MAX_SCALARS || PyTuple_GET_SIZE(names) != a->tensor_count ||
      PyBytes_GET_SIZE(kinds) != a->scalar_count) {
    PyErr_Format(PyExc_ValueError, "%zd tensors, %zd names, %zd parameters and %zd kinds (at most %d and %d)",
                 a->tensor_count, PyTuple_GET_SIZE(names), a->scalar_count, PyBytes_GET_SIZE(kinds), MAX_TENSORS,
                 MAX_SCALARS);
    return -1;
  }
  Py_ssize_t total = 0;
  for (Py_ssize_t i = 0; i < a->tensor_count; ++i) {
    PyObject* item = PyTuple_GET_ITEM(tensors, i);
    total += is_list(item) ? PyTuple_GET_SIZE(item) : 1;
  }
  if (total > MAX_TENSORS) {
    a->descriptors = PyMem_Malloc((size_t)total * sizeof(cutile_cpp_tensor));
    if (!a->descriptors) {
      a->descriptors = a->inline_descriptors;
      PyErr_NoMemory();
      return -1;
    }
  }
  Py_ssize_t next = 0;
  for (Py_ssize_t i = 0; i < a->tensor_count; ++i) {
    PyObject* item = PyTuple_GET_ITEM(tensors, i);
    a->counts[i] = 1;
    if (item == Py_None) {
      a->pointers[i] = NULL;
      continue;
    }
    const char* name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
    if (!name) goto fail;
    a->pointers[i] = &a->descriptors[next];
    if (!is_list(item)) {
      if (fill(&a->descriptors[next++], item, name, -1, with_data) < 0) goto fail;
      continue;
    }
    a->lists = 1;
    a->counts[i] = PyTuple_GET_SIZE(item);
    for (Py_ssize_t g = 0; g < a->counts[i]; ++g)
      if (fill(&a->descriptors[next++], PyTuple_GET_ITEM(item, g), name, g, with_data) < 0) goto fail;
  }
  const char* kind = PyBytes_AS_STRING(kinds);
  for (Py_ssize_t i = 0; i < a->scalar_count; ++i) {
    PyObject* value = PyTuple_GET_ITEM(scalars, i);
    if (kind[i] == 'r')
      a->scalars[i].real = PyFloat_AsDouble(value);
    else
      a->scalars[i].integer = PyLong_AsLongLong(value);
    if (PyErr_Occurred()) goto fail;
  }
  return 0;
fail:
  release(a);
  return -1;
}

static PyObject* configure(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 3 || !PyDict_Check(args[0]))
    return PyErr_Format(PyExc_TypeError, "configure(dtype_codes: dict, call: int, output_shapes: int)");
  library_call = (call_fn)PyLong_AsVoidPtr(args[1]);
  library_output_shapes = (output_shapes_fn)PyLong_AsVoidPtr(args[2]);
  if (PyErr_Occurred()) return NULL;
  Py_INCREF(args[0]);
  Py_XSETREF(dtype_codes, args[0]);
  Py_RETURN_NONE;
}

static PyObject* call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 7) return PyErr_Format(PyExc_TypeError, "call(op, tensors, names, scalars, kinds, device_id, stream)");
  struct arguments a;
  const long op = PyLong_AsLong(args[0]);
  const long device_id = PyLong_AsLong(args[5]);
  void* stream = args[6] == Py_None ? NULL : PyLong_AsVoidPtr(args[6]);
  if (PyErr_Occurred() || unpack(&a, args[1], args[2], args[3], args[4], 1) < 0) return NULL;
  const int32_t status = library_call((int32_t)op, a.pointers, a.lists ? a.counts : NULL, (int32_t)a.tensor_count,
                                      a.scalars, (int32_t)a.scalar_count, (int32_t)device_id, stream);
  release(&a);
  return PyLong_FromLong(status);
}

static PyObject* output_shapes(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 7)
    return PyErr_Format(PyExc_TypeError, "output_shapes(op, tensors, names, scalars, kinds, count, with_data)");
  struct arguments a;
  const long op = PyLong_AsLong(args[0]);
  const long count = PyLong_AsLong(args[5]);
  const int with_data = PyObject_IsTrue(args[6]);
  if (PyErr_Occurred() || with_data < 0) return NULL;
  if (count < 0 || count > INT32_MAX) return PyErr_Format(PyExc_ValueError, "%ld outputs", count);
  cutile_cpp_tensor inline_outputs[MAX_TENSORS];
  cutile_cpp_tensor* outputs = count > MAX_TENSORS ? PyMem_Malloc((size_t)count * sizeof(cutile_cpp_tensor)) : inline_outputs;
  if (!outputs) return PyErr_NoMemory();
  PyObject* result = NULL;
  if (unpack(&a, args[1], args[2], args[3], args[4], with_data) == 0) {
    const int32_t status = library_output_shapes((int32_t)op, a.pointers, a.lists ? a.counts : NULL,
                                                 (int32_t)a.tensor_count, a.scalars, (int32_t)a.scalar_count, outputs,
                                                 (int32_t)count);
    release(&a);
    PyObject* list = PyList_New(status == CUTILE_CPP_OK ? count : 0);
    for (long i = 0; list && status == CUTILE_CPP_OK && i < count; ++i) {
      PyObject* shape = PyTuple_New(outputs[i].ndim);
      if (!shape) {
        Py_CLEAR(list);
        break;
      }
      for (int d = 0; d < outputs[i].ndim; ++d) PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(outputs[i].shape[d]));
      PyList_SET_ITEM(list, i, Py_BuildValue("(iN)", outputs[i].dtype, shape));
    }
    if (list) result = Py_BuildValue("(iN)", status, list);
  }
  if (outputs != inline_outputs) PyMem_Free(outputs);
  return result;
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_FASTCALL,
     "configure(dtype_codes, call, output_shapes): dtype codes and the library's entry addresses"},
    {"call", (PyCFunction)(void (*)(void))call, METH_FASTCALL,
     "call(op, tensors, names, scalars, kinds, device_id, stream) -> status of cutile_cpp_call"},
    {"output_shapes", (PyCFunction)(void (*)(void))output_shapes, METH_FASTCALL,
     "output_shapes(op, tensors, names, scalars, kinds, count, with_data) -> (status, [(dtype, shape)])"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", NULL, -1, methods};

PyMODINIT_FUNC PyInit__native(void) {
  struct {
    PyObject** slot;
    const char* text;
  } names[] = {{&s_dtype, "dtype"},           {&s_is_cuda, "is_cuda"},   {&s_is_cpu, "is_cpu"},
               {&s_get_device, "get_device"}, {&s_data_ptr, "data_ptr"}, {&s_shape, "shape"},
               {&s_stride, "stride"},         {&s_device, "device"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (!(*names[i].slot = PyUnicode_InternFromString(names[i].text))) return NULL;
  return PyModule_Create(&module);
}
