/* cutile_cpp._descriptors: fills cutile_cpp_tensor descriptors from torch.Tensors in C.
 *
 * Packing three descriptors in Python costs more host time per launch than the whole C ABI call; here it
 * is a handful of attribute reads per tensor. The struct comes from the C header itself, so the layout
 * has one source. torch is reached only through its Python attributes (dtype, is_cuda, is_cpu,
 * get_device(), data_ptr(), shape, stride()): the module links neither libtorch nor a torch ABI.
 *
 *   configure(dtype_codes: dict[torch.dtype, int])   once, before pack
 *   pack(buffer, tensors: tuple|list, names: tuple|list) -> None
 *       writes descriptor i of `buffer` (a writable buffer of cutile_cpp_tensor) for tensors[i]; errors
 *       name the argument: TypeError for a dtype without a code, ValueError for another device or too
 *       many dims.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "cutile_cpp/kernels.h"

static PyObject* dtype_codes; /* dict: torch.dtype -> cutile_cpp_dtype code */
static PyObject *s_dtype, *s_is_cuda, *s_is_cpu, *s_get_device, *s_data_ptr, *s_shape, *s_stride,
    *s_device;

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

static int fill(cutile_cpp_tensor* d, PyObject* tensor, const char* name) {
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
    if (!is_cpu) {
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
  PyObject* address = call_method(tensor, s_data_ptr);
  if (!address) return -1;
  d->data = PyLong_AsVoidPtr(address);
  Py_DECREF(address);
  return PyErr_Occurred() ? -1 : 0;
}

static PyObject* configure(PyObject* self, PyObject* codes) {
  (void)self;
  if (!PyDict_Check(codes)) return PyErr_Format(PyExc_TypeError, "configure() takes a dict of dtype codes");
  Py_INCREF(codes);
  Py_XSETREF(dtype_codes, codes);
  Py_RETURN_NONE;
}

static PyObject* pack(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 3) return PyErr_Format(PyExc_TypeError, "pack() takes (buffer, tensors, names)");
  if (!dtype_codes) return PyErr_Format(PyExc_RuntimeError, "pack() before configure()");
  PyObject* tensors = PySequence_Fast(args[1], "pack(): tensors must be a sequence");
  if (!tensors) return NULL;
  PyObject* names = PySequence_Fast(args[2], "pack(): names must be a sequence");
  if (!names) {
    Py_DECREF(tensors);
    return NULL;
  }
  Py_buffer buffer;
  if (PyObject_GetBuffer(args[0], &buffer, PyBUF_WRITABLE) < 0) {
    Py_DECREF(tensors);
    Py_DECREF(names);
    return NULL;
  }
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(tensors);
  int failed = 0;
  if (PySequence_Fast_GET_SIZE(names) != count) {
    PyErr_Format(PyExc_ValueError, "pack(): %zd tensors but %zd names", count, PySequence_Fast_GET_SIZE(names));
    failed = 1;
  } else if ((size_t)buffer.len < (size_t)count * sizeof(cutile_cpp_tensor)) {
    PyErr_Format(PyExc_ValueError, "pack(): the buffer holds %zd bytes, %zd descriptors need %zu", buffer.len, count,
                 (size_t)count * sizeof(cutile_cpp_tensor));
    failed = 1;
  }
  cutile_cpp_tensor* descriptors = (cutile_cpp_tensor*)buffer.buf;
  for (Py_ssize_t i = 0; !failed && i < count; ++i) {
    const char* name = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(names, i));
    failed = !name || fill(&descriptors[i], PySequence_Fast_GET_ITEM(tensors, i), name) < 0;
  }
  PyBuffer_Release(&buffer);
  Py_DECREF(tensors);
  Py_DECREF(names);
  if (failed) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_O, "configure(dtype_codes): the cutile_cpp_dtype code of each torch.dtype"},
    {"pack", (PyCFunction)(void (*)(void))pack, METH_FASTCALL,
     "pack(buffer, tensors, names): writes the descriptor of tensors[i] at index i of buffer"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_descriptors", NULL, -1, methods};

PyMODINIT_FUNC PyInit__descriptors(void) {
  struct {
    PyObject** slot;
    const char* text;
  } names[] = {{&s_dtype, "dtype"},   {&s_is_cuda, "is_cuda"},   {&s_is_cpu, "is_cpu"},
               {&s_get_device, "get_device"}, {&s_data_ptr, "data_ptr"},
               {&s_shape, "shape"},   {&s_stride, "stride"},     {&s_device, "device"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (!(*names[i].slot = PyUnicode_InternFromString(names[i].text))) return NULL;
  return PyModule_Create(&module);
}
