/* The C ABI of libcutile_cpp_kernels.so: the kernel library for C, Python (the cutile_cpp package reads
 * this file to build its binding) and any other language with a C FFI.
 *
 * This file is generated from the ops' descriptions (kernels/<family>/<op>.cpp) and the template
 * capi/abi/kernels.h.in: `cmake --build build --target cutile_cpp_header` writes it, and a test holds the
 * committed copy to the descriptions.
 *
 * Conventions of every op `cutile_cpp_<op>`:
 *   - outputs first, then in-place and input tensors, as `const cutile_cpp_tensor*` (NULL only where an
 *     argument is optional), a list of tensors as `const cutile_cpp_tensor* name, int64_t name_count`: an
 *     array of name_count descriptors, at least one; then op parameters; then `device_id` and the raw
 *     CUstream (NULL: the legacy default stream) last;
 *   - the return value is a cutile_cpp_status; on failure cutile_cpp_last_error() holds a message for the
 *     calling thread, naming the op and the argument;
 *   - every argument is checked before anything runs, in this order: null pointers, descriptor fields,
 *     devices, dtypes, ranks, shapes, parameters, the op's shape rules, index ranges, aliasing (a written
 *     tensor may not overlap any other argument, or itself);
 *   - the kernels are queued on the caller's stream and the call returns: no synchronisation, no copy;
 *     host (CPU) tensors run on the CPU interpreter before the call returns, with a null stream;
 *   - no exception or abort crosses the boundary.
 * The memory behind a descriptor must stay valid until the queued work has finished.
 *
 * Each op's comment states its tensors as `role name dtype[dims]`: one dtype variable (E, ...) is one
 * dtype for every tensor typed with it, and one symbol (M, N, ...) is one extent wherever it appears. A
 * list's type is its elements': lists of one length (G in "a list of G") have that many elements, and
 * element g of each binds the symbols of its type for that g alone.
 */
#ifndef CUTILE_CPP_KERNELS_H
#define CUTILE_CPP_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUTILE_CPP_ABI_VERSION 3
#define CUTILE_CPP_MAX_DIMS 5

#define CUTILE_CPP_API __attribute__((visibility("default")))

/* Element type codes. */
typedef enum cutile_cpp_dtype {
  CUTILE_CPP_F32 = 0,
  CUTILE_CPP_F16 = 1,
  CUTILE_CPP_BF16 = 2,
  CUTILE_CPP_I32 = 3,
  CUTILE_CPP_I64 = 4,
  CUTILE_CPP_F8E4M3FN = 5,
  CUTILE_CPP_F8E5M2 = 6,
  CUTILE_CPP_BOOL = 7,
  CUTILE_CPP_U8 = 8
} cutile_cpp_dtype;

/* Where the memory is; the codes are DLPack's (DLDeviceType). */
typedef enum cutile_cpp_device_type {
  CUTILE_CPP_DEVICE_CPU = 1,
  CUTILE_CPP_DEVICE_CUDA = 2
} cutile_cpp_device_type;

typedef enum cutile_cpp_status {
  CUTILE_CPP_OK = 0,
  CUTILE_CPP_ERROR_NULL_POINTER = 1,        /* a null descriptor or list, or null data with elements */
  CUTILE_CPP_ERROR_INVALID_DESCRIPTOR = 2,  /* ndim, extents, strides, dtype code, device fields, alignment */
  CUTILE_CPP_ERROR_UNSUPPORTED_DTYPE = 3,   /* a dtype the op has no kernel for */
  CUTILE_CPP_ERROR_DTYPE_MISMATCH = 4,      /* arguments that must share a dtype do not */
  CUTILE_CPP_ERROR_RANK_MISMATCH = 5,
  CUTILE_CPP_ERROR_SHAPE_MISMATCH = 6,      /* the op's shape relations do not hold */
  CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE = 7,   /* valid, but beyond what the op's kernels handle */
  CUTILE_CPP_ERROR_DEVICE_MISMATCH = 8,     /* descriptors on different devices, or not on (CUDA, device_id) */
  CUTILE_CPP_ERROR_ALIASING = 9,            /* a written tensor overlaps another argument or itself */
  CUTILE_CPP_ERROR_INVALID_ARGUMENT = 10,   /* a parameter out of range, or a check of the launch itself */
  CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE = 11, /* no CUDA driver, or no device `device_id` */
  CUTILE_CPP_ERROR_INVALID_POINTER = 12,    /* data the driver does not know as memory of the device */
  CUTILE_CPP_ERROR_INVALID_STREAM = 13,     /* of another device, unknown to the driver, or not null for the CPU */
  CUTILE_CPP_ERROR_RUNTIME = 14,            /* the driver, a launch or tileiras failed */
  CUTILE_CPP_ERROR_INTERNAL = 15            /* a bug in cutile */
} cutile_cpp_status;

/* A strided tensor view of someone else's memory. Entries of shape and strides at ndim and beyond are
 * ignored. Strides are in elements and non-negative. */
typedef struct cutile_cpp_tensor {
  void* data;                            /* element [0, ..., 0] */
  int64_t shape[CUTILE_CPP_MAX_DIMS];
  int64_t strides[CUTILE_CPP_MAX_DIMS];
  int32_t ndim;                          /* 0 .. CUTILE_CPP_MAX_DIMS */
  int32_t dtype;                         /* a cutile_cpp_dtype */
  int32_t device_type;                   /* a cutile_cpp_device_type */
  int32_t device_id;                     /* the CUDA ordinal; 0 for the CPU */
} cutile_cpp_tensor;

/* A parameter of cutile_cpp_call: `real` for a double parameter, `integer` for every other. */
typedef union cutile_cpp_scalar {
  double real;
  int64_t integer;
} cutile_cpp_scalar;

/* CUTILE_CPP_ABI_VERSION of the library, to compare with the header's. */
CUTILE_CPP_API int32_t cutile_cpp_abi_version(void);

/* sizeof(cutile_cpp_tensor) in the library, to compare with the caller's. */
CUTILE_CPP_API int32_t cutile_cpp_tensor_size(void);

/* The message of the last failed call on this thread; "" after a successful one. Valid until the next
 * call on this thread. */
CUTILE_CPP_API const char* cutile_cpp_last_error(void);

/* "CUTILE_CPP_ERROR_ALIASING" for CUTILE_CPP_ERROR_ALIASING; "unknown status" for other values. */
CUTILE_CPP_API const char* cutile_cpp_status_name(int32_t status);

/* ---- calling ops by number, for bindings ---- */

/* Every op's description as one JSON document: {"abi_version", "dtypes", "ops": [...]}, the ops sorted by
 * name, each with its tensors (name, role, type, ...), parameters (name, type, default, choices, valid
 * values), shape rules, backward and TileGym signature. Valid for the life of the process. */
CUTILE_CPP_API const char* cutile_cpp_op_specs(void);

/* The number of the op named `name` (its index in cutile_cpp_op_specs()'s "ops"), or -1. */
CUTILE_CPP_API int32_t cutile_cpp_op_number(const char* name);

/* Runs op number `op`: its tensors in its order (NULL for an absent optional one; for a list, its array of
 * counts[i] descriptors) and its parameters (`real` for the double ones), with the checks and semantics of
 * its cutile_cpp_<op> function. `counts` has an entry per tensor, read at lists only; NULL for an op
 * without lists. */
CUTILE_CPP_API int32_t cutile_cpp_call(int32_t op, const cutile_cpp_tensor* const* tensors, const int64_t* counts,
                                       int32_t tensor_count, const cutile_cpp_scalar* scalars, int32_t scalar_count,
                                       int32_t device_id, void* stream);

/* The dtypes and shapes of op number `op`'s outputs for the given inputs and parameters, written into the
 * ndim, shape, strides (row-major) and dtype of `outputs[0 .. output_count)`, one per output of the op in
 * its order (a list output: one per element, in order, as many as the input lists of its length have),
 * after the checks of the inputs and parameters that cutile_cpp_call makes. The outputs' places in
 * `tensors` and `counts` are not read and may be NULL. Runs nothing. */
CUTILE_CPP_API int32_t cutile_cpp_output_shapes(int32_t op, const cutile_cpp_tensor* const* tensors,
                                                const int64_t* counts, int32_t tensor_count,
                                                const cutile_cpp_scalar* scalars, int32_t scalar_count,
                                                cutile_cpp_tensor* outputs, int32_t output_count);

/* Autotunes the op named `op` on GPU `device_id` at `config` ("M=4096 N=4096 E=bf16 use_tma=1"; a value may
 * be a set, "N={2048,4096}", for every combination): every point of its tuning space is compiled and timed,
 * and the fastest is appended to the JSON-lines file `records` (tuning/<op>.jsonl in the source tree, where
 * the next build compiles it in). A configuration the file holds already for this GPU and tileiras release
 * is skipped. Runs `jobs` tileiras processes at once and keeps the median of `runs` timed calls per point.
 * Takes minutes. docs/autotuning.md. */
CUTILE_CPP_API int32_t cutile_cpp_tune(const char* op, const char* config, const char* records, int32_t jobs,
                                       int32_t runs, int32_t device_id);

/* ---- attention ---- */

/* cutile_cpp_fmha:
 * Attention forward (flash attention, online softmax in f32): o = softmax(scaling * q @ k^T) @ v per head,
 * query head h attending with key/value head h / (H / G) (grouped-query attention); causal: query row i sees
 * keys j <= i + L - S (the keys before the queries are a prefix).
 *   out   o  E[B, H, S, D]
 *   in    q  E[B, H, S, D]
 *   in    k  E[B, G, L, D]
 *   in    v  E[B, G, L, D]
 *   E: f16, bf16
 *   scaling: double, default nan: the score scale; NaN (Python: None) is 1/sqrt(D)
 *   is_causal: int32_t (0 or 1), default 1
 *   requires H % G == 0 (else SHAPE_MISMATCH): query heads come in groups of equal size per key/value head
 *   requires is_causal == 0 || L >= S (else SHAPE_MISMATCH): causal queries are the last S of the L positions
 *   requires D == 64 || D == 128 (else UNSUPPORTED_SHAPE): the kernels are instantiated for head dims 64 and
 *     128
 *   Ports TileGym src/tilegym/ops/cutile/attention.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_fmha(const cutile_cpp_tensor* o, const cutile_cpp_tensor* q,
                                       const cutile_cpp_tensor* k, const cutile_cpp_tensor* v, double scaling,
                                       int32_t is_causal, int32_t device_id, void* stream);

/* cutile_cpp_splitk_reduce:
 * The merge of split-KV attention decode partials: attn_out[b, h, :] = sum_i w_i * attn_splitk_out[b, h, i,
 * :] / sum_i w_i with w_i = 2^(lse_splitk_out[b, h, i] - max_i lse_splitk_out[b, h, i]) (log-sum-exps in log2
 * units), computed in f32.
 *   out   attn_out         E[B, H, D]
 *   in    attn_splitk_out  E[B, H, K, D]
 *   in    lse_splitk_out   f32[B, H, K]
 *   E: f32, f16, bf16
 *   requires K >= 1 (else SHAPE_MISMATCH): the merge needs at least one split
 *   requires K <= 256 (else UNSUPPORTED_SHAPE): the splits tile is at most 256 (next_pow2(K))
 *   Ports TileGym src/tilegym/ops/cutile/splitk_reduce.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_splitk_reduce(const cutile_cpp_tensor* attn_out,
                                                const cutile_cpp_tensor* attn_splitk_out,
                                                const cutile_cpp_tensor* lse_splitk_out, int32_t device_id,
                                                void* stream);

/* ---- elementwise ---- */

/* cutile_cpp_dropout:
 * y = dropout(x) in training mode with TileGym's hash mask: element i (of the flattened tensor) is kept when
 * f32(h(i) & 0x7fffffff) / 2^31 > f32(p), h the int32 xorshift hash of i * 1103515245 + mix(seed), and
 * becomes x[i] * (1 / (1 - p) rounded to the dtype), else 0 (all 0 at p = 1). mix(seed) is TileGym's
 * _mix_seed, (seed * 0x9E3779B1) mod 2^32 as an int32, so that a seed gives TileGym's mask bit for bit. Eval
 * mode is the identity: callers skip the call.
 *   out   y  E[N]
 *   in    x  E[N]
 *   E: f32, f16, bf16
 *   seed: int64_t, required: TileGym's seed; only its value modulo 2^32 matters
 *   p: double, default 0.5, valid when finite(p) && p >= 0 && p <= 1: the probability of dropping an element
 *   Ports TileGym src/tilegym/ops/cutile/dropout.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_dropout(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                          int64_t seed, double p, int32_t device_id, void* stream);

/* cutile_cpp_dropout_inplace:
 * dropout with x its own output, updated in place: the same mask and scale.
 *   inout x  E[N]
 *   E: f32, f16, bf16
 *   seed: int64_t, required: TileGym's seed; only its value modulo 2^32 matters
 *   p: double, default 0.5, valid when finite(p) && p >= 0 && p <= 1: the probability of dropping an element
 *   Ports TileGym src/tilegym/ops/cutile/dropout.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_dropout_inplace(const cutile_cpp_tensor* x, int64_t seed, double p,
                                                  int32_t device_id, void* stream);

/* cutile_cpp_gelu_approximate:
 * The GELU form (TileGym's `approximate`) of gelu, geglu and their backwards: see cutile_cpp_gelu.
 */
typedef enum cutile_cpp_gelu_approximate {
  CUTILE_CPP_GELU_APPROXIMATE_NONE = 0,
  CUTILE_CPP_GELU_APPROXIMATE_TANH = 1
} cutile_cpp_gelu_approximate;

/* cutile_cpp_geglu:
 * y = a * gelu(b) for the halves a = x[:, :N] and b = x[:, N:] of each row, gelu in the form `approximate`
 * names (as in gelu), computed in f32. TileGym's geglu over `dim` is this op on x reshaped to
 * (prod(shape[:dim]), prod(shape[dim:])).
 *   out   y  E[M, N]
 *   in    x  E[M, 2*N]
 *   E: f32, f16, bf16
 *   approximate: cutile_cpp_gelu_approximate, default CUTILE_CPP_GELU_APPROXIMATE_NONE
 *   Its backward is cutile_cpp_geglu_backward.
 *   Ports TileGym src/tilegym/ops/cutile/activation/geglu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_geglu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                        int32_t approximate, int32_t device_id, void* stream);

/* cutile_cpp_geglu_backward:
 * dx[:, :N] = dy * gelu(b), dx[:, N:] = dy * a * gelu'(b), for a, b and the form as in geglu (gelu' as in
 * gelu_backward), computed in f32.
 *   out   dx  E[M, 2*N]
 *   in    dy  E[M, N]
 *   in    x   E[M, 2*N]
 *   E: f32, f16, bf16
 *   approximate: cutile_cpp_gelu_approximate, default CUTILE_CPP_GELU_APPROXIMATE_NONE
 *   Ports TileGym src/tilegym/ops/cutile/activation/geglu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_geglu_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                 const cutile_cpp_tensor* x, int32_t approximate,
                                                 int32_t device_id, void* stream);

/* cutile_cpp_gelu:
 * y = gelu(x) elementwise in the form `approximate` names, computed in the dtype (as TileGym's).
 *   out   y  E[N]
 *   in    x  E[N]
 *   E: f32, f16, bf16
 *   approximate: cutile_cpp_gelu_approximate, default CUTILE_CPP_GELU_APPROXIMATE_NONE: tanh: x/2 (1 + tanh
 *     u), u = sqrt(2/pi) (x + 0.044715 x^3); none: the same with tanh u taken as 2 sigmoid(2u) - 1, TileGym's
 *     cutile 'none' (within 5e-4 of erf's GELU)
 *   Its backward is cutile_cpp_gelu_backward.
 *   Ports TileGym src/tilegym/ops/cutile/activation/gelu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_gelu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                       int32_t approximate, int32_t device_id, void* stream);

/* cutile_cpp_gelu_backward:
 * dx = dy * gelu'(x) elementwise, computed in f32: for tanh the derivative of its forward; for none Phi~(x) +
 * x phi(x), Phi~ the forward's tanh-form CDF and phi the Gaussian density, as TileGym differentiates it.
 *   out   dx  E[N]
 *   in    dy  E[N]
 *   in    x   E[N]
 *   E: f32, f16, bf16
 *   approximate: cutile_cpp_gelu_approximate, default CUTILE_CPP_GELU_APPROXIMATE_NONE
 *   Ports TileGym src/tilegym/ops/cutile/activation/gelu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_gelu_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                const cutile_cpp_tensor* x, int32_t approximate,
                                                int32_t device_id, void* stream);

/* cutile_cpp_relu:
 * y = max(x, 0) elementwise (TileGym's cutile relu has no backward either).
 *   out   y  E[N]
 *   in    x  E[N]
 *   E: f32, f16, bf16
 *   Ports TileGym src/tilegym/ops/cutile/activation/relu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_relu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                       int32_t device_id, void* stream);

/* cutile_cpp_silu_and_mul:
 * y = silu(a) * b for the halves a = x[:, :H] and b = x[:, H:] of each row, computed in f32 (the sigmoid
 * through exp2 with subnormals flushed and an approximate division, as TileGym's).
 *   out   y  E[M, H]
 *   in    x  E[M, 2*H]
 *   E: f32, f16, bf16
 *   Its backward is cutile_cpp_silu_and_mul_backward.
 *   Ports TileGym src/tilegym/ops/cutile/silu_and_mul.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_silu_and_mul(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                               int32_t device_id, void* stream);

/* cutile_cpp_silu_and_mul_backward:
 * dx[:, :H] = dy * b * silu'(a), dx[:, H:] = dy * silu(a), for a and b as in silu_and_mul, computed in f32.
 *   out   dx  E[M, 2*H]
 *   in    dy  E[M, H]
 *   in    x   E[M, 2*H]
 *   E: f32, f16, bf16
 *   Ports TileGym src/tilegym/ops/cutile/silu_and_mul.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_silu_and_mul_backward(const cutile_cpp_tensor* dx,
                                                        const cutile_cpp_tensor* dy,
                                                        const cutile_cpp_tensor* x, int32_t device_id,
                                                        void* stream);

/* cutile_cpp_swiglu:
 * c = silu(a) * b for a and b of one shape: silu in f32 (an approximate division flushing subnormals),
 * rounded to the dtype, and the product taken in the dtype, as TileGym's.
 *   out   c  E[M, N]
 *   in    a  E[M, N]
 *   in    b  E[M, N]
 *   E: f32, f16, bf16
 *   Its backward is cutile_cpp_swiglu_backward.
 *   Ports TileGym src/tilegym/ops/cutile/swiglu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_swiglu(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                         const cutile_cpp_tensor* b, int32_t device_id, void* stream);

/* cutile_cpp_swiglu_backward:
 * da = dc * b * silu'(a), db = dc * silu(a), silu'(a) = s (1 + a (1 - s)) with s = sigmoid(a), computed in
 * f32.
 *   out   da  E[M, N]
 *   out   db  E[M, N]
 *   in    dc  E[M, N]
 *   in    a   E[M, N]
 *   in    b   E[M, N]
 *   E: f32, f16, bf16
 *   Ports TileGym src/tilegym/ops/cutile/swiglu.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_swiglu_backward(const cutile_cpp_tensor* da, const cutile_cpp_tensor* db,
                                                  const cutile_cpp_tensor* dc, const cutile_cpp_tensor* a,
                                                  const cutile_cpp_tensor* b, int32_t device_id, void* stream);

/* cutile_cpp_vector_add:
 * c = a + b elementwise, in the dtype.
 *   out   c  E[N]
 *   in    a  E[N]
 *   in    b  E[N]
 *   E: f32, f16, bf16
 */
CUTILE_CPP_API int32_t cutile_cpp_vector_add(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                             const cutile_cpp_tensor* b, int32_t device_id, void* stream);

/* ---- gemm ---- */

/* cutile_cpp_bmm:
 * c[q] = op(a[q]) @ op(b[q]) for every q of the batch with f32 accumulation, stored in the dtype (f16 and
 * bf16 on the tensor cores; f32 operands in f32, not tf32, as TileGym's); op(x) is x, or its transpose when x
 * is given transposed. static_persistent walks the output tiles with a persistent grid, batch after batch in
 * TileGym's grouped order, in the tiles TileGym's autotuner picks on the H200 for the shape; else one block
 * per 128x128 tile on a (M tiles, N tiles, Q) grid. Both kernels take transposed operands (TileGym's plain
 * kernel refuses them); TileGym's kernel_configs (the plain kernel's tiles) is accepted and not taken.
 *   out   c  E[Q, M, N]
 *   in    a  E[Q, M, K] (given transposed when transpose_a)
 *   in    b  E[Q, K, N] (given transposed when transpose_b)
 *   E: f32, f16, bf16
 *   transpose_a: int32_t (0 or 1), default 0: a is given as (Q, K, M)
 *   transpose_b: int32_t (0 or 1), default 0: b is given as (Q, N, K)
 *   static_persistent: int32_t (0 or 1), default 1: a persistent grid walks the tiles (TileGym's static
 *     persistent, its default)
 *   config: int64_t, default -1, valid when config >= -1 && config < 3 * static_persistent: the persistent
 *     kernel's tiles: -1 picks them by shape, else an index of kPersistentBmmTiles in kernels/gemm/bmm.hpp
 *   Ports TileGym src/tilegym/ops/cutile/bmm.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_bmm(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                      const cutile_cpp_tensor* b, int32_t transpose_a, int32_t transpose_b,
                                      int32_t static_persistent, int64_t config, int32_t device_id,
                                      void* stream);

/* cutile_cpp_matmul:
 * c = op(a) @ op(b) on the tensor cores with f32 accumulation (f32 inputs as tf32), stored in the dtype;
 * op(x) is x, or its transpose when x is given transposed. static_persistent walks the output tiles with a
 * persistent grid in TileGym's grouped order; else one block per tile in that order.
 *   out   c  E[M, N]
 *   in    a  E[M, K] (given transposed when trans_a)
 *   in    b  E[K, N] (given transposed when trans_b)
 *   E: f32, f16, bf16, f8e4m3fn, f8e5m2
 *   trans_a: int32_t (0 or 1), default 0: a is given as (K, M)
 *   trans_b: int32_t (0 or 1), default 0: b is given as (N, K)
 *   static_persistent: int32_t (0 or 1), default 0: a persistent grid walks the tiles (TileGym's static
 *     persistent)
 *   config: int64_t, default -1, valid when config >= -1 && config < 4 + 4 * static_persistent: the tiles: -1
 *     picks them by shape, else an index of kMatmulTiles (or, static persistent, kPersistentMatmulTiles) in
 *     kernels/gemm/matmul.hpp
 *   Ports TileGym src/tilegym/ops/cutile/matmul.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_matmul(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                         const cutile_cpp_tensor* b, int32_t trans_a, int32_t trans_b,
                                         int32_t static_persistent, int64_t config, int32_t device_id,
                                         void* stream);

/* cutile_cpp_transpose:
 * y = x^T: y[n, m] = x[m, n].
 *   out   y  E[N, M]
 *   in    x  E[M, N]
 *   E: f32, f16, bf16
 *   Its backward is cutile_cpp_transpose_backward.
 *   Ports TileGym src/tilegym/ops/cutile/transpose.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_transpose(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                            int32_t device_id, void* stream);

/* cutile_cpp_transpose_backward:
 * The backward of transpose: dx = dy^T.
 *   out   dx  E[M, N]
 *   in    dy  E[N, M]
 *   E: f32, f16, bf16
 *   Ports TileGym src/tilegym/ops/cutile/transpose.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_transpose_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                     int32_t device_id, void* stream);

/* ---- normalization ---- */

/* cutile_cpp_layer_norm_legacy:
 * Layer normalisation over the last axis, one row per block in column tiles (TileGym's legacy kernel), in
 * f32: mean[r] = mean_c x[r, c]; rstd[r] = 1 / sqrt(mean_c (x[r, c] - mean[r])^2 + eps); y[r, c] = (x[r, c] -
 * mean[r]) * rstd[r] * (weight[c] + weight_shift) + bias[c], stored in the dtype; mean and rstd are stored
 * too.
 *   out   y       E[M, N]
 *   out   mean    f32[M]   one per row
 *   out   rstd    f32[M]   one per row
 *   in    x       E[M, N]
 *   in    weight  E[N]
 *   in    bias    E[N]
 *   E: f32, f16, bf16
 *   eps: double, required, valid when finite(eps) && eps >= 0
 *   weight_shift: double, default 0, valid when finite(weight_shift): added to the weight
 *   requires N * size(E) <= 65536 (else UNSUPPORTED_SHAPE): a row of at most 64 KiB (TileGym's
 *     MAX_FUSED_SIZE)
 *   Ports TileGym src/tilegym/ops/cutile/layer_norm_legacy.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_layer_norm_legacy(const cutile_cpp_tensor* y, const cutile_cpp_tensor* mean,
                                                    const cutile_cpp_tensor* rstd, const cutile_cpp_tensor* x,
                                                    const cutile_cpp_tensor* weight,
                                                    const cutile_cpp_tensor* bias, double eps,
                                                    double weight_shift, int32_t device_id, void* stream);

/* cutile_cpp_persistent_layer_norm:
 * Layer normalisation over the last axis, persistent (row tiles, one block per SM), in f32: mean[r] = mean_c
 * x[r, c] and rstd[r] = 1 / sqrt(mean_c x[r, c]^2 - mean[r]^2 + eps), stored; y = (x - mean) * rstd * weight
 * + bias rounded to bf16 (as TileGym's kernel stores it, whatever the dtype), stored in the dtype.
 *   out   y       E[M, N]
 *   out   mean    f32[M]   one per row
 *   out   rstd    f32[M]   one per row
 *   in    x       E[M, N]
 *   in    weight  E[N]
 *   in    bias    E[N]
 *   E: f32, f16, bf16
 *   eps: double, required, valid when finite(eps) && eps >= 0
 *   requires N <= 16384 (else UNSUPPORTED_SHAPE): a row is one column tile of at most 16384 (wider ones take
 *     tileiras minutes)
 *   Ports TileGym src/tilegym/ops/cutile/layer_norm_legacy.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_persistent_layer_norm(const cutile_cpp_tensor* y,
                                                        const cutile_cpp_tensor* mean,
                                                        const cutile_cpp_tensor* rstd,
                                                        const cutile_cpp_tensor* x,
                                                        const cutile_cpp_tensor* weight,
                                                        const cutile_cpp_tensor* bias, double eps,
                                                        int32_t device_id, void* stream);

/* cutile_cpp_persistent_layer_norm_given_stats:
 * persistent_layer_norm with mean and rstd given (read, not computed).
 *   out   y       E[M, N]
 *   in    x       E[M, N]
 *   in    weight  E[N]
 *   in    bias    E[N]
 *   in    mean    f32[M]   one per row
 *   in    rstd    f32[M]   one per row
 *   E: f32, f16, bf16
 *   requires N <= 16384 (else UNSUPPORTED_SHAPE): a row is one column tile of at most 16384 (wider ones take
 *     tileiras minutes)
 *   Ports TileGym src/tilegym/ops/cutile/layer_norm_legacy.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_persistent_layer_norm_given_stats(const cutile_cpp_tensor* y,
                                                                    const cutile_cpp_tensor* x,
                                                                    const cutile_cpp_tensor* weight,
                                                                    const cutile_cpp_tensor* bias,
                                                                    const cutile_cpp_tensor* mean,
                                                                    const cutile_cpp_tensor* rstd,
                                                                    int32_t device_id, void* stream);

/* cutile_cpp_rms_norm_mode:
 * The kernel schedule of cutile_cpp_rms_norm (TileGym's `mode`): auto is static persistent when M > 2 * SMs,
 * else multi-wave reload; static persistent walks (TM, next_pow2(N)) row tiles with one block per SM;
 * multi-wave reload gathers each row in tiles twice, one row per block; multi-wave cached gathers it whole
 * once.
 */
typedef enum cutile_cpp_rms_norm_mode {
  CUTILE_CPP_RMS_NORM_MODE_AUTO = 0,
  CUTILE_CPP_RMS_NORM_MODE_STATIC_PERSISTENT = 1,
  CUTILE_CPP_RMS_NORM_MODE_MULTI_WAVE_RELOAD = 2,
  CUTILE_CPP_RMS_NORM_MODE_MULTI_WAVE_CACHED = 3
} cutile_cpp_rms_norm_mode;

/* cutile_cpp_rms_norm:
 * RMS normalisation over the last axis, computed in f32: rstd[r] = 1 / sqrt(mean_c x[r, c]^2 + eps), y[r, :]
 * = x[r, :] * rstd[r] * (offset + weight), stored in the dtype; rstd is stored too.
 *   out   y       E[M, N]
 *   out   rstd    f32[M]   one per row
 *   in    x       E[M, N]
 *   in    weight  E[N]
 *   E: f32, f16, bf16
 *   eps: double, default 1e-06, valid when finite(eps) && eps >= 0
 *   offset: double, default 0, valid when finite(offset): 0 for Llama, 1 for Gemma3
 *   mode: cutile_cpp_rms_norm_mode, default CUTILE_CPP_RMS_NORM_MODE_AUTO
 *   requires N <= 32768 (else UNSUPPORTED_SHAPE): a row is at most one 32768-column tile
 *   Its backward is cutile_cpp_rms_norm_backward.
 *   Ports TileGym src/tilegym/ops/cutile/rms_norm.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_rms_norm(const cutile_cpp_tensor* y, const cutile_cpp_tensor* rstd,
                                           const cutile_cpp_tensor* x, const cutile_cpp_tensor* weight,
                                           double eps, double offset, int32_t mode, int32_t device_id,
                                           void* stream);

/* cutile_cpp_rms_norm_backward:
 * The backward of rms_norm given its rstd: x_hat = x * rstd, g = dy * (offset + weight), dx = (g - x_hat *
 * mean_c(x_hat * g)) * rstd, dweight = sum_r dy * x_hat (in f32, stored in the dtype).
 *   out   dx       E[M, N]
 *   out   dweight  E[N]
 *   in    dy       E[M, N]
 *   in    x        E[M, N]
 *   in    weight   E[N]
 *   in    rstd     f32[M]
 *   E: f32, f16, bf16
 *   offset: double, default 0, valid when finite(offset)
 *   requires N <= 32768 (else UNSUPPORTED_SHAPE): a row is at most one 32768-column tile
 *   Ports TileGym src/tilegym/ops/cutile/rms_norm.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_rms_norm_backward(const cutile_cpp_tensor* dx,
                                                    const cutile_cpp_tensor* dweight,
                                                    const cutile_cpp_tensor* dy, const cutile_cpp_tensor* x,
                                                    const cutile_cpp_tensor* weight,
                                                    const cutile_cpp_tensor* rstd, double offset,
                                                    int32_t device_id, void* stream);

/* cutile_cpp_softmax:
 * y[r, :] = softmax(x[r, :]) over the last axis, computed in f32 with the approximate exp and division. The
 * flags pick TileGym's kernel: multi-wave (one row per block), else chunked (rows in chunks of at most 8192
 * columns, three passes), else TMA (persistent tile loads and stores), else the persistent gather kernel.
 * Rows of more than 16384 columns take the chunked kernel whatever the flags say.
 *   out   y  E[M, N]
 *   in    x  E[M, N]
 *   E: f32, f16, bf16
 *   use_tma: int32_t (0 or 1), default 0: persistent tile (TMA) loads and stores
 *   use_chunked: int32_t (0 or 1), default 0, valid when !(use_tma && use_chunked): rows in chunks of at most
 *     8192 columns
 *   use_multi_wave: int32_t (0 or 1), default 0: one row per tile block
 *   Ports TileGym src/tilegym/ops/cutile/softmax.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_softmax(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                          int32_t use_tma, int32_t use_chunked, int32_t use_multi_wave,
                                          int32_t device_id, void* stream);

/* ---- position ---- */

/* cutile_cpp_rope:
 * Rotary position embedding (HuggingFace Llama form), in place on q and k, for i < R/2 (R = rope_dim):
 *   x[..., i] <- x[..., i] * cos[i] - x[..., i + R/2] * sin[i]
 *   x[..., i + R/2] <- x[..., i + R/2] * cos[i] + x[..., i] * sin[i]
 * with cos and sin the row of the position (and of the batch, for a table per batch); head dims R and beyond
 * are not touched, and only the first R/2 columns of cos and sin are read (their halves repeat). Computed in
 * the dtype. One launch when both q and k have batch stride S times their position stride (e.g. transposes of
 * (B, S, H, D) buffers), or B = 1, or S = 1; else one launch per batch.
 *   inout q    E[B, HQ, S, D]
 *   inout k    E[B, HK, S, D]
 *   in    cos  E[CB, S, W]     CB = B: a table per batch; CB = 1: one for all
 *   in    sin  E[CB, S, W]
 *   E: f32, f16, bf16
 *   rope_dim: int64_t, required, valid when rope_dim >= 2 && rope_dim % 2 == 0 && rope_dim <= D: how many
 *     head dims rotate (R): the first R; the others pass through
 *   requires CB == 1 || CB == B (else SHAPE_MISMATCH): cos and sin have one table for the whole batch, or one
 *     per batch
 *   requires W >= rope_dim / 2 (else SHAPE_MISMATCH): the rotation reads the first R/2 columns of cos and sin
 *   requires pow2(rope_dim / 2) && rope_dim >= 16 && rope_dim <= 256 (else UNSUPPORTED_SHAPE): the kernels
 *     take R/2 a power of two in [8, 128]
 *   requires HQ >= 1 && HK >= 1 && max(HQ, HK) <= 128 (else UNSUPPORTED_SHAPE): q and k each have at least
 *     one head, and one tile block holds at most 128
 *   Its backward is cutile_cpp_rope_backward.
 *   Ports TileGym src/tilegym/ops/cutile/rope.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_rope(const cutile_cpp_tensor* q, const cutile_cpp_tensor* k,
                                       const cutile_cpp_tensor* cos, const cutile_cpp_tensor* sin,
                                       int64_t rope_dim, int32_t device_id, void* stream);

/* cutile_cpp_rope_backward:
 * The backward of rope: the gradients dq and dk rotated in place by the opposite angles (the transpose of the
 * rotation, sin negated).
 *   inout dq   E[B, HQ, S, D]
 *   inout dk   E[B, HK, S, D]
 *   in    cos  E[CB, S, W]
 *   in    sin  E[CB, S, W]
 *   E: f32, f16, bf16
 *   rope_dim: int64_t, required, valid when rope_dim >= 2 && rope_dim % 2 == 0 && rope_dim <= D: how many
 *     head dims rotate (R): the first R; the others pass through
 *   requires CB == 1 || CB == B (else SHAPE_MISMATCH): cos and sin have one table for the whole batch, or one
 *     per batch
 *   requires W >= rope_dim / 2 (else SHAPE_MISMATCH): the rotation reads the first R/2 columns of cos and sin
 *   requires pow2(rope_dim / 2) && rope_dim >= 16 && rope_dim <= 256 (else UNSUPPORTED_SHAPE): the kernels
 *     take R/2 a power of two in [8, 128]
 *   requires HQ >= 1 && HK >= 1 && max(HQ, HK) <= 128 (else UNSUPPORTED_SHAPE): q and k each have at least
 *     one head, and one tile block holds at most 128
 *   Ports TileGym src/tilegym/ops/cutile/rope.py.
 */
CUTILE_CPP_API int32_t cutile_cpp_rope_backward(const cutile_cpp_tensor* dq, const cutile_cpp_tensor* dk,
                                                const cutile_cpp_tensor* cos, const cutile_cpp_tensor* sin,
                                                int64_t rope_dim, int32_t device_id, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* CUTILE_CPP_KERNELS_H */
