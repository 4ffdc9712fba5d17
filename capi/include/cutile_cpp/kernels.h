/* The C ABI of libcutile_cpp_kernels.so: the kernel library for C, Python (the cutile_cpp package reads
 * this file to build its binding) and any other language with a C FFI.
 *
 * Conventions of every op `cutile_cpp_<op>`:
 *   - outputs first, then inputs, as `const cutile_cpp_tensor*`; then op parameters; then `device_id` and
 *     the raw CUstream (NULL: the legacy default stream) last;
 *   - the return value is a cutile_cpp_status; on failure cutile_cpp_last_error() holds a message for the
 *     calling thread, naming the op and the argument;
 *   - every descriptor is checked before anything runs, in this order: null pointers, descriptor fields,
 *     devices, dtypes, ranks, shapes, aliasing (an output may not overlap any argument, or itself);
 *   - the kernel is queued on the caller's stream and the call returns: no synchronisation, no copy;
 *     host (CPU) tensors run on the CPU interpreter before the call returns, with a null stream;
 *   - no exception or abort crosses the boundary.
 * The memory behind a descriptor must stay valid until the queued work has finished.
 */
#ifndef CUTILE_CPP_KERNELS_H
#define CUTILE_CPP_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUTILE_CPP_ABI_VERSION 1
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
  CUTILE_CPP_ERROR_NULL_POINTER = 1,        /* a null descriptor, or null data with elements */
  CUTILE_CPP_ERROR_INVALID_DESCRIPTOR = 2,  /* ndim, extents, strides, dtype code, device fields, alignment */
  CUTILE_CPP_ERROR_UNSUPPORTED_DTYPE = 3,   /* a dtype the op has no kernel for */
  CUTILE_CPP_ERROR_DTYPE_MISMATCH = 4,      /* arguments that must share a dtype do not */
  CUTILE_CPP_ERROR_RANK_MISMATCH = 5,
  CUTILE_CPP_ERROR_SHAPE_MISMATCH = 6,
  CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE = 7,   /* valid, but beyond what the op's kernels handle */
  CUTILE_CPP_ERROR_DEVICE_MISMATCH = 8,     /* descriptors on different devices, or not on (CUDA, device_id) */
  CUTILE_CPP_ERROR_ALIASING = 9,            /* an output overlaps another argument or itself */
  CUTILE_CPP_ERROR_INVALID_ARGUMENT = 10,   /* a non-tensor argument, or a check of the launch itself */
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

/* CUTILE_CPP_ABI_VERSION of the library, to compare with the header's. */
CUTILE_CPP_API int32_t cutile_cpp_abi_version(void);

/* sizeof(cutile_cpp_tensor) in the library, to compare with the caller's. */
CUTILE_CPP_API int32_t cutile_cpp_tensor_size(void);

/* The message of the last failed call on this thread; "" after a successful one. Valid until the next
 * call on this thread. */
CUTILE_CPP_API const char* cutile_cpp_last_error(void);

/* "CUTILE_CPP_ERROR_ALIASING" for CUTILE_CPP_ERROR_ALIASING; "unknown status" for other values. */
CUTILE_CPP_API const char* cutile_cpp_status_name(int32_t status);

/* The softmax kernels (TileGym's cutile softmax.py), for cutile_cpp_softmax_variant. */
typedef enum cutile_cpp_softmax_kernel {
  CUTILE_CPP_SOFTMAX_GATHER = 0,     /* persistent, rows gathered: TileGym's default */
  CUTILE_CPP_SOFTMAX_MULTI_WAVE = 1, /* one row per tile block (use_multi_wave) */
  CUTILE_CPP_SOFTMAX_TMA = 2,        /* persistent, rows loaded and stored as tiles (use_tma) */
  CUTILE_CPP_SOFTMAX_CHUNKED = 3     /* persistent, rows in chunks of at most 8192 columns, three passes
                                        (use_chunked) */
} cutile_cpp_softmax_kernel;

/* y[r, :] = softmax(x[r, :]) over the last axis, computed in f32 with the approximate exp and division.
 * y, x: 2-D, the same shape (M, N) and dtype (f32, f16 or bf16), any strides; any N. Runs
 * CUTILE_CPP_SOFTMAX_GATHER. */
CUTILE_CPP_API int32_t cutile_cpp_softmax(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                          int32_t device_id, void* stream);

/* cutile_cpp_softmax with the kernel picked by `kernel`, a cutile_cpp_softmax_kernel (another value:
 * INVALID_ARGUMENT). Rows of more than 16384 columns run CUTILE_CPP_SOFTMAX_CHUNKED whatever `kernel` says:
 * the one-tile-per-row kernels hold at most 16384. */
CUTILE_CPP_API int32_t cutile_cpp_softmax_variant(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                                  int32_t kernel, int32_t device_id, void* stream);

/* c = a + b elementwise. c, a, b: 1-D, the same length and dtype (f32, f16 or bf16), any strides. */
CUTILE_CPP_API int32_t cutile_cpp_vector_add(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                             const cutile_cpp_tensor* b, int32_t device_id, void* stream);

/* ---- activations: relu, gelu, geglu, silu_and_mul, swiglu (forward and backward) ---- */

/* The GELU form of cutile_cpp_gelu* and cutile_cpp_geglu* (TileGym's `approximate`): TANH is
 * x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); NONE is the same with tanh(u) evaluated as
 * 2 sigmoid(2u) - 1 through exp, as TileGym's cutile kernels evaluate approximate="none". */
#define CUTILE_CPP_GELU_NONE 0
#define CUTILE_CPP_GELU_TANH 1

/* y = max(x, 0) elementwise. y, x: 1-D, the same length and dtype (f32, f16 or bf16), any strides. */
CUTILE_CPP_API int32_t cutile_cpp_relu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, int32_t device_id,
                                       void* stream);

/* y = gelu(x) elementwise, computed in x's dtype (as TileGym's); approximate: CUTILE_CPP_GELU_NONE or
 * _TANH (else INVALID_ARGUMENT). y, x: 1-D, the same length and dtype (f32, f16 or bf16), any strides. */
CUTILE_CPP_API int32_t cutile_cpp_gelu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, int32_t approximate,
                                       int32_t device_id, void* stream);

/* dx = dy * gelu'(x), computed in f32, for the same `approximate`. dx, dy, x: 1-D, the same length and
 * dtype, any strides. */
CUTILE_CPP_API int32_t cutile_cpp_gelu_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                const cutile_cpp_tensor* x, int32_t approximate, int32_t device_id,
                                                void* stream);

/* y = a * gelu(b) with a = x[:, :N], b = x[:, N:], computed in f32. x: 2-D (M, 2N); y: (M, N); one dtype
 * (f32, f16 or bf16), any strides. (TileGym's geglu over `dim` is x reshaped to (prod(shape[:dim]),
 * prod(shape[dim:])).) */
CUTILE_CPP_API int32_t cutile_cpp_geglu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, int32_t approximate,
                                        int32_t device_id, void* stream);

/* dx[:, :N] = dy * gelu(b), dx[:, N:] = dy * a * gelu'(b), for a, b and `approximate` as in
 * cutile_cpp_geglu. dx, x: (M, 2N); dy: (M, N); one dtype, any strides. */
CUTILE_CPP_API int32_t cutile_cpp_geglu_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                 const cutile_cpp_tensor* x, int32_t approximate, int32_t device_id,
                                                 void* stream);

/* y = silu(a) * b with a = x[:, :H], b = x[:, H:], computed in f32. x: 2-D (M, 2H); y: (M, H); one dtype
 * (f32, f16 or bf16), any strides. */
CUTILE_CPP_API int32_t cutile_cpp_silu_and_mul(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                               int32_t device_id, void* stream);

/* dx[:, :H] = dy * b * silu'(a), dx[:, H:] = dy * silu(a), for a, b as in cutile_cpp_silu_and_mul.
 * dx, x: (M, 2H); dy: (M, H); one dtype, any strides. */
CUTILE_CPP_API int32_t cutile_cpp_silu_and_mul_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                        const cutile_cpp_tensor* x, int32_t device_id, void* stream);

/* c = silu(a) * b (silu in f32, the product in the dtype). c, a, b: 2-D, the same shape and dtype (f32,
 * f16 or bf16), any strides. */
CUTILE_CPP_API int32_t cutile_cpp_swiglu(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                         const cutile_cpp_tensor* b, int32_t device_id, void* stream);

/* da = dc * b * silu'(a), db = dc * silu(a), computed in f32. da, db, dc, a, b: 2-D, the same shape and
 * dtype, any strides. */
CUTILE_CPP_API int32_t cutile_cpp_swiglu_backward(const cutile_cpp_tensor* da, const cutile_cpp_tensor* db,
                                                  const cutile_cpp_tensor* dc, const cutile_cpp_tensor* a,
                                                  const cutile_cpp_tensor* b, int32_t device_id, void* stream);

/* ---- normalization: rms_norm, layer_norm_legacy, persistent_layer_norm ---- */

/* The kernel schedule of cutile_cpp_rms_norm (TileGym's `mode`). */
typedef enum cutile_cpp_rms_norm_mode {
  CUTILE_CPP_RMS_NORM_AUTO = 0,              /* static persistent when M > 2 * SMs, else multi-wave reload */
  CUTILE_CPP_RMS_NORM_STATIC_PERSISTENT = 1, /* one block per SM walking (TM, next_pow2(N)) row tiles */
  CUTILE_CPP_RMS_NORM_MULTI_WAVE_RELOAD = 2, /* one row per block, gathered in tiles twice */
  CUTILE_CPP_RMS_NORM_MULTI_WAVE_CACHED = 3  /* one row per block, gathered whole once */
} cutile_cpp_rms_norm_mode;

/* rstd[r] = 1 / sqrt(mean_c x[r, c]^2 + eps); y[r, :] = x[r, :] * rstd[r] * (offset + weight), in f32.
 * y, x: 2-D (M, N); weight: (N); all three one dtype (f32, f16 or bf16); rstd: (M) f32; any strides;
 * N <= 32768. mode: a cutile_cpp_rms_norm_mode (AUTO counts the device's SMs). */
CUTILE_CPP_API int32_t cutile_cpp_rms_norm(const cutile_cpp_tensor* y, const cutile_cpp_tensor* rstd,
                                           const cutile_cpp_tensor* x, const cutile_cpp_tensor* weight, double eps,
                                           double offset, int32_t mode, int32_t device_id, void* stream);

/* The backward of cutile_cpp_rms_norm with offset 0, given the forward's rstd:
 *   dx = (dy * weight - x_hat * mean_c(x_hat * dy * weight)) * rstd, x_hat = x * rstd;
 *   dw_partial[b, c] = the sum of dy * x_hat over the rows block b visits (dw = dw_partial.sum(0)[:N]).
 * dx, dy, x: 2-D (M, N); weight: (N); one dtype (f32, f16 or bf16); rstd: (M) f32; dw_partial: (G, >= N)
 * f32, G >= 1 the persistent grid (TileGym: min(SMs, row tiles), at most 32 for 64 row tiles or fewer);
 * any strides; N <= 32768. */
CUTILE_CPP_API int32_t cutile_cpp_rms_norm_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dw_partial,
                                                    const cutile_cpp_tensor* dy, const cutile_cpp_tensor* x,
                                                    const cutile_cpp_tensor* weight, const cutile_cpp_tensor* rstd,
                                                    int32_t device_id, void* stream);

/* Layer normalisation, one row per block in column tiles (TileGym's legacy kernel):
 *   mean[r] = mean_c x[r, c]; rstd[r] = 1 / sqrt(mean_c (x[r, c] - mean[r])^2 + eps);
 *   y[r, c] = (x[r, c] - mean[r]) * rstd[r] * (weight[c] + weight_shift) + bias[c], in f32.
 * y, x: 2-D (M, N); weight, bias: (N); all one dtype (f32, f16 or bf16); mean, rstd: (M) f32; any strides;
 * N * element size <= 64 KiB. */
CUTILE_CPP_API int32_t cutile_cpp_layer_norm_legacy(const cutile_cpp_tensor* y, const cutile_cpp_tensor* mean,
                                                    const cutile_cpp_tensor* rstd, const cutile_cpp_tensor* x,
                                                    const cutile_cpp_tensor* weight, const cutile_cpp_tensor* bias,
                                                    double eps, double weight_shift, int32_t device_id, void* stream);

/* Layer normalisation, persistent (8 rows per tile, one block per SM): mean and rstd as above, computed
 * as E[x^2] - E[x]^2, stored; y = (x - mean) * rstd * weight + bias rounded to bf16, stored as y's dtype.
 * y, x: 2-D (N, D); weight, bias: (D); all one dtype (f32, f16 or bf16); mean, rstd: (N) f32; any
 * strides; D <= 16384 (UNSUPPORTED_SHAPE above). */
CUTILE_CPP_API int32_t cutile_cpp_persistent_layer_norm(const cutile_cpp_tensor* y, const cutile_cpp_tensor* mean,
                                                        const cutile_cpp_tensor* rstd, const cutile_cpp_tensor* x,
                                                        const cutile_cpp_tensor* weight,
                                                        const cutile_cpp_tensor* bias, double eps, int32_t device_id,
                                                        void* stream);

/* The same with mean and rstd given (read, not computed). */
CUTILE_CPP_API int32_t cutile_cpp_persistent_layer_norm_given_stats(
    const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, const cutile_cpp_tensor* weight,
    const cutile_cpp_tensor* bias, const cutile_cpp_tensor* mean, const cutile_cpp_tensor* rstd, int32_t device_id,
    void* stream);

/* ---- dropout and rope ---- */

/* Rotary position embedding (HuggingFace Llama form), in place on q and k, for i < R/2 (R = rope_dim):
 *   x[..., i] <- x[..., i]·cos[i] - x[..., i + R/2]·sin[i]
 *   x[..., i + R/2] <- x[..., i + R/2]·cos[i] + x[..., i]·sin[i]
 * with cos/sin the row of the position (and of the batch, for a per-batch table); head dims R and beyond
 * are not touched; only the first R/2 columns of cos and sin are read (their halves repeat). Computed in
 * the dtype. The backward is the same call on the gradients with -sin.
 * q: (B, Hq, S, D), k: (B, Hk, S, D), read and written (outputs); cos, sin: (S, W) or (1 | B, S, W) with
 * W >= R/2; all one dtype (f32, f16 or bf16), any strides. R even and <= D (else INVALID_ARGUMENT), R/2 a
 * power of two in [8, 128] and max(Hq, Hk) <= 128 (else UNSUPPORTED_SHAPE). One launch when both q and k
 * have batch stride S times their position stride (e.g. transposes of (B, S, H, D) buffers), or B = 1, or
 * S = 1; else one launch per batch. */
CUTILE_CPP_API int32_t cutile_cpp_rope(const cutile_cpp_tensor* q, const cutile_cpp_tensor* k,
                                       const cutile_cpp_tensor* cos, const cutile_cpp_tensor* sin, int64_t rope_dim,
                                       int32_t device_id, void* stream);

/* y = dropout(x) in training mode with TileGym's hash mask: element i (of the 1-D view) is kept when
 * f32(h(i) & 0x7fffffff) / 2^31 > f32(p), h the int32 xorshift hash of i * 1103515245 + mix(seed), and
 * becomes x[i] * (1 / (1 - p) rounded to the dtype), else 0 (all 0 when p >= 1). mix(seed) is TileGym's
 * _mix_seed: (seed * 0x9E3779B1) mod 2^32 as int32, so the same seed gives TileGym's mask bit for bit.
 * y, x: 1-D, the same length and dtype (f32, f16 or bf16), any strides; p: not NaN (else
 * INVALID_ARGUMENT). Eval mode is the identity: callers skip the call. */
CUTILE_CPP_API int32_t cutile_cpp_dropout(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, double p,
                                          int64_t seed, int32_t device_id, void* stream);

/* cutile_cpp_dropout with x as its own output, updated in place. */
CUTILE_CPP_API int32_t cutile_cpp_dropout_inplace(const cutile_cpp_tensor* x, double p, int64_t seed,
                                                  int32_t device_id, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* CUTILE_CPP_KERNELS_H */
