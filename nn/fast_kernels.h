// nn/fast_kernels.h — the float kernels behind nn/fast_net.h, compiled once per instruction set
// and chosen at run time.
//
// One source (nn/fast_kernels_impl.h) is compiled three times: "scalar" (portable C++ with the
// compiler's baseline flags, no FMA; GCC's vector extensions lower to whatever the target has),
// "avx2" (AVX2 + FMA, 8 floats a vector) and "avx512" (AVX-512F/BW/DQ/VL + FMA, 16 floats a
// vector). The best path the CPU supports is used unless the environment variable NARDY_SIMD
// (scalar, avx2 or avx512) forces one; the choice is made once per process.
//
// Reproducibility: avx2 and avx512 do the same operations in the same order on every number
// (fused multiply-adds, the same partial sums), so they give the same bits; scalar rounds the
// products separately and differs in the last bits (tests/nn/fast_kernels_test.cpp checks
// avx2 == avx512 bit for bit and both against scalar within 1e-5). So training and search results
// are reproducible for the same seed on machines that take the same path (or the same forced
// NARDY_SIMD); across paths they agree to float rounding.
//
// This header is torch-free and includes nothing heavy: the kernel translation units are compiled
// with instruction-set flags and must not instantiate inline functions that other translation
// units share (the linker could keep an AVX-512 copy for a machine without it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nardy {

enum class SimdPath : uint8_t { Scalar, Avx2, Avx512 };

const char* simd_path_name(SimdPath path);                       // "scalar", "avx2", "avx512"
std::optional<SimdPath> parse_simd_path(std::string_view name);  // nullopt if unknown
// Whether this build has the path and this CPU runs it.
bool simd_path_supported(SimdPath path);
// The widest supported path.
SimdPath best_simd_path();
// The process's path: NARDY_SIMD if set, else best_simd_path(); decided at the first call.
// Throws Error when NARDY_SIMD names an unknown or unsupported path (at every call, so every
// FastNet construction reports it).
SimdPath active_simd_path();

// One hidden layer's parameters as the kernels read them (layout of nn/value_net.h):
// W1 [in][hidden], b1 [hidden], W2 [hidden][k], b2 [k].
struct KernelNet {
  const float* w1;
  const float* b1;
  const float* w2;
  const float* b2;
  int in, hidden, k;   // k = 3 or 4
  uint8_t activation;  // nn/value_net.h's Activation as its integer value
};

// TD(λ) traces as nn/fast_net.h's FastTd keeps them: k blocks of trace_size floats, each the
// parameters' shape in the order W1, b1, W2, b2.
struct KernelTraces {
  float* data;
  size_t trace_size;
};

// A TD(λ) gradient computed but not yet added to the traces (nn/fast_net.h's FastTd adds it
// during the next update): row_x[i] = x_i for the W1 rows that get x_i g_k (the state's non-zero
// inputs), 0 elsewhere; grad = g_k[j] (k x hidden); jac and h as td_add_gradient takes them.
struct KernelGradient {
  const float* row_x;
  const float* grad;
  const float (*jac)[4];
  const float* h;
};

// One dense layer y = b + x W as the kernels read it: W [in][out] row-major (nn/value_net.h).
struct KernelLayer {
  const float* w;
  const float* b;
  int in, out;
};

// The layers after the first of a net with two or more hidden layers (the first keeps
// KernelNet's sparse, incremental sums): hidden layers 2..L, then the output layer (out = k).
// Hidden layer l (0-based) has layers[l].in units; the activations of all of them are kept
// concatenated ("hidden": h_0 | h_1 | ... | h_{L-1}), and a gradient with respect to the hidden
// sums likewise, one such block per output k.
struct KernelUpper {
  const KernelLayer* layers;
  int num_layers;  // L: the hidden layers after the first, plus the output layer
  uint8_t activation;
};

// Most layers after the first (nn/value_net.h's kMaxHiddenLayers; nn/fast_net.cpp checks).
constexpr int kMaxKernelUpperLayers = 4;

struct FastKernels {
  SimdPath path;
  // Lists the non-zero inputs of x[0..n): rows[] and coef[] = x; returns their number.
  int (*nonzero_inputs)(const float* x, int n, int* rows, float* coef);
  // sums[0..hidden) = b1 + x W1, zero inputs skipped. Uses stack buffers of net.in entries
  // (net.in <= kMaxKernelInputs).
  void (*hidden_sums)(const KernelNet& net, const float* x, float* sums);
  // sums of x from base's sums: adds (x_i - base_i) W1[i] where x_i != base_i.
  void (*hidden_sums_from_base)(const KernelNet& net, const float* base_sums, const float* base,
                                const float* x, float* sums);
  // The same given the differences already listed: adds coef[t] W1[rows[t]] for t < num_rows
  // (rows increasing, as hidden_sums_from_base lists them) to base_sums.
  void (*hidden_sums_from_rows)(const KernelNet& net, const float* base_sums, const int* rows,
                                const float* coef, int num_rows, float* sums);
  // hidden = act(sums), z[0..k) = b2 + hidden W2.
  void (*logits_from_sums)(const KernelNet& net, const float* sums, float* hidden, float* z);
  // logits_from_sums for two candidates c = 0, 1 (sums[c], hidden[c], z[c]) in one pass over
  // W2: the same bits as two calls, in less time.
  void (*logits_from_sums_pair)(const KernelNet& net, const float* const* sums,
                                float* const* hidden, float (*z)[4]);
  // Adds to trace m (m < k) the gradient of output m, given the hidden sums a and activations h
  // of the state, jac[m][0..k) = ∂V_m/∂z (already divided by the traces' scale) and the state's
  // non-zero inputs (rows, xs). deriv (hidden) and grad (k x hidden) are scratch.
  void (*td_add_gradient)(const KernelNet& net, const float* a, const float* h,
                          const float (*jac)[4], const int* rows, const float* xs, int num_rows,
                          float* deriv, float* grad, KernelTraces traces);
  // θ += Σ_m c[m] e_m over the W1 rows `rows` and all of b1, W2, b2; params = {W1, b1, W2, b2}.
  void (*td_update)(const KernelNet& net, float* const* params, KernelTraces traces, const float* c,
                    const int* rows, int num_rows);
  // td_add_gradient in two halves. td_gradient: grad (k x hidden) = g_k for the state (a, h) and
  // jac; deriv is scratch.
  void (*td_gradient)(const KernelNet& net, const float* a, const float* h, const float (*jac)[4],
                      float* deriv, float* grad);
  // Adds `gradient` to the traces (its W1 rows: those of `rows` with row_x != 0, which must all
  // be in `rows`) and, if c is non-null, then applies td_update(c, rows), in one pass over the
  // rows. The same bits as td_add_gradient followed by td_update.
  void (*td_add_gradient_and_update)(const KernelNet& net, float* const* params,
                                     KernelTraces traces, const float* c, const int* rows,
                                     int num_rows, const KernelGradient& gradient);
  // td_update's W1 step for one row, `num_steps` times in order with c[0], c[1], ...: the row
  // `row` of W1 gets Σ_m c[s][m] e_m once per step s (a FastTd that defers rows catches one up).
  void (*td_replay_row)(const KernelNet& net, float* w1, KernelTraces traces, const float (*c)[4],
                        int num_steps, int row);
  // ---- Nets with two or more hidden layers (KernelUpper; nn/fast_net.h) ----
  // hidden = the activations of every hidden layer given the first one's sums, z[0..k) = the
  // logits: each further layer a dense mat-vec of the previous activations (in a fixed order of
  // eight-lane operations, so avx2 and avx512 agree bit for bit), the output layer as
  // logits_from_sums's.
  void (*upper_forward)(const KernelUpper& up, const float* sums, float* hidden, float* z);
  // grad (k blocks of the concatenated hidden units) = ∂V_k/∂(hidden sums) by back-propagation
  // from jac[k][0..k) = ∂V_k/∂z through the layers, given the state's activations `hidden`.
  void (*upper_backprop)(const KernelUpper& up, const float* hidden, const float (*jac)[4], int k,
                         float* grad);
  // Adds the state's gradient to every trace's b1 and the further layers' W and b (the traces'
  // layout: W1, b1, then W, b of each further layer; b1 at off_b1): b1 += g_0,
  // W_l += h_{l-1} ⊗ g_l, b_l += g_l, W_out += h_{L-1} ⊗ jac[k], b_out += jac[k].
  void (*upper_add_gradient)(const KernelUpper& up, const float* hidden, const float (*jac)[4],
                             int k, const float* grad, KernelTraces traces, size_t off_b1);
  // The W1-row pass of td_add_gradient_and_update for any depth: for each row i of `rows`, if
  // row_x is non-null and row_x[i] != 0, trace m's row += row_x[i] * grad[m * grad_stride ..]
  // (m < k); then, if c is non-null, W1 row i += Σ_m c[m] e_m (w1 = the writable W1).
  void (*td_rows)(const KernelNet& net, float* w1, KernelTraces traces, const float* c,
                  const int* rows, int num_rows, const float* row_x, const float* grad,
                  size_t grad_stride);
  // theta[0..n) += Σ_m c[m] e_m[offset .. offset + n), m < k: td_update's step of one tensor.
  void (*apply_traces)(float* theta, KernelTraces traces, size_t offset, size_t n, const float* c,
                       int k);
  // Peak-rate probe for `nardy bench kernels`: `iterations` rounds of independent fused
  // multiply-adds (or multiply + add on scalar) on registers; returns a checksum.
  float (*peak_probe)(long iterations, float x);
  int peak_probe_flops_per_iteration;
};

// Largest input count the kernels handle (their changed-row lists live on the stack).
constexpr int kMaxKernelInputs = 4096;

// The kernels of `path`. Throws Error if !simd_path_supported(path).
const FastKernels& fast_kernels(SimdPath path);

}  // namespace nardy
