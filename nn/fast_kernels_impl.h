// nn/fast_kernels_impl.h — the bodies of nn/fast_kernels.h's kernels, included once by each of
// nn/fast_kernels_{scalar,avx2,avx512}.cpp after they define NARDY_KERNEL_LANES (floats per
// vector: 8, or 16 for AVX-512) and NARDY_KERNEL_PATH (a SimdPath). Everything here has internal
// linkage and uses only compiler builtins, so each translation unit keeps its own copy compiled
// for its instruction set (see the note in nn/fast_kernels.h).
//
// Plain loops written for the auto-vectoriser (the kernel files build with -O3) and explicit
// vectors where the order of operations matters: every number goes through the same operations
// in the same order whatever the vector width, which is why avx2 and avx512 agree bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "nn/fast_kernels.h"

#ifndef NARDY_KERNEL_LANES
#error "define NARDY_KERNEL_LANES (8 or 16) before including nn/fast_kernels_impl.h"
#endif

namespace nardy {
namespace {

constexpr int kLanes = NARDY_KERNEL_LANES;
// Eight floats, and kLanes floats, as one value (GCC/Clang vector extensions). aligned(4) allows
// loads from any float address.
typedef float F8 __attribute__((vector_size(32), aligned(4)));
typedef float FV __attribute__((vector_size(4 * NARDY_KERNEL_LANES), aligned(4)));

template <class V>
inline V load(const float* p) {
  V v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
template <class V>
inline void store(float* p, V v) {
  __builtin_memcpy(p, &v, sizeof v);
}

// Activation codes (nn/value_net.h's Activation; fast_kernels.cpp checks they agree).
constexpr uint8_t kSigmoid = 0, kTanh = 1, kRelu = 2;

// e^x for x in float range, Cephes' expf polynomial with Cody-Waite range reduction
// (relative error below 1e-7 over [-87, 88]); branch-free so that loops over it vectorise.
inline float exp_approx(float x) {
  x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
  // Round to nearest by the 1.5 * 2^23 trick (floor would be a libm call and stop the
  // vectoriser; |x * log2 e| < 128 keeps it exact).
  constexpr float kRound = 12582912.0f;
  const float n = (x * 1.44269504088896341f + kRound) - kRound;
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  return p * __builtin_bit_cast(float, bits);
}

template <uint8_t A>
void activate_plain(const float* a, float* h, int n) {
  for (int j = 0; j < n; ++j) {
    if constexpr (A == kSigmoid) {
      h[j] = 1.0f / (1.0f + exp_approx(-a[j]));
    } else if constexpr (A == kTanh) {
      h[j] = 2.0f / (1.0f + exp_approx(-2.0f * a[j])) - 1.0f;
    } else {
      h[j] = a[j] > 0.0f ? a[j] : 0.0f;
    }
  }
}

#if defined(__FMA__) && (NARDY_KERNEL_LANES == 8 || defined(__AVX512F__))
// The sigmoid and tanh of the FMA paths, kLanes units at a time with intrinsics: per lane the
// operations of activate_plain as GCC compiles them with FMA (the multiply-adds of exp_approx
// fused, and 1 + p 2^n fused too), so the same bits, in fewer instructions (issue 11's 1-ply
// item): the clamp as max/min before the exponential (the compiler computed it unclamped and
// blended the out-of-range lanes after, 4 compares + 3 blends), and 2^n as the bits of the
// rounded sum shifted (the rounding constant carries the exponent bias 127 in its low bits),
// not a float-to-int conversion, an add and a shift. Without ties (a fused x log2(e) is never
// exactly halfway between two integers for |x| <= 88), rounding x log2(e) + 1.5 2^23 + 127
// gives the same n as rounding x log2(e) + 1.5 2^23. Checked against the build before on all
// 2^32 floats (equal bits; NaN stays NaN); tests/nn/fast_kernels_test.cpp (KernelActivations)
// compares a spread of them with the fused formula written out with std::fma.
#if NARDY_KERNEL_LANES == 16
using VecF = __m512;
#else
using VecF = __m256;
#endif
inline VecF v_set(float x) {
  return VecF{} + x;
}
inline VecF v_fmadd(VecF a, VecF b, VecF c) {  // a b + c
#if NARDY_KERNEL_LANES == 16
  return _mm512_fmadd_ps(a, b, c);
#else
  return _mm256_fmadd_ps(a, b, c);
#endif
}
inline VecF v_fnmsub(VecF a, VecF b, VecF c) {  // -(a b) - c
#if NARDY_KERNEL_LANES == 16
  return _mm512_fnmsub_ps(a, b, c);
#else
  return _mm256_fnmsub_ps(a, b, c);
#endif
}
// x clamped to [lo, hi]; a NaN stays NaN. (AVX-512: the zero-masking forms with every lane kept,
// as the plain ones make GCC 12 warn of an uninitialised variable inside its own header.)
inline VecF v_clamp(VecF x, VecF lo, VecF hi) {
#if NARDY_KERNEL_LANES == 16
  return _mm512_maskz_min_ps(0xffff, hi, _mm512_maskz_max_ps(0xffff, lo, x));
#else
  return _mm256_min_ps(hi, _mm256_max_ps(lo, x));
#endif
}
// The float with the bits of t shifted left by 23.
inline VecF v_shift_exponent(VecF t) {
  typedef int32_t VecI __attribute__((vector_size(sizeof(VecF))));
  return reinterpret_cast<VecF>(reinterpret_cast<VecI>(t) << 23);
}

// 1 + e^-y: exp_approx(-y) with its last multiply fused with the 1 (the negation folded into
// the multiply-adds: the same products up to their exact signs).
inline VecF one_plus_exp_neg(VecF y) {
  constexpr float kRoundBiased = 12582912.0f + 127.0f;
  y = v_clamp(y, v_set(-88.0f), v_set(87.0f));
  const VecF t = v_fmadd(y, v_set(-1.44269504088896341f), v_set(kRoundBiased));
  const VecF n = t - v_set(kRoundBiased);
  VecF r = v_fnmsub(n, v_set(0.693359375f), y);  // -y - n ln2_hi
  r = v_fmadd(n, v_set(2.12194440e-4f), r);
  VecF p = v_fmadd(v_set(1.9875691500e-4f), r, v_set(1.3981999507e-3f));
  p = v_fmadd(p, r, v_set(8.3334519073e-3f));
  p = v_fmadd(p, r, v_set(4.1665795894e-2f));
  p = v_fmadd(p, r, v_set(1.6666665459e-1f));
  p = v_fmadd(p, r, v_set(5.0000001201e-1f));
  const VecF q = v_fmadd(p * r, r, r) + v_set(1.0f);
  return v_fmadd(q, v_shift_exponent(t), v_set(1.0f));
}

template <uint8_t A>
inline VecF activate_vector(VecF a) {
  if constexpr (A == kSigmoid)
    return v_set(1.0f) / one_plus_exp_neg(a);
  else
    return v_set(2.0f) / one_plus_exp_neg(v_set(2.0f) * a) - v_set(1.0f);
}

// Whole vectors, then the last n mod kLanes units by activate_plain, which computes the same
// bits per unit (above). (Not through a padded vector on the stack: a local array the vector
// code takes the address of gets 64-byte alignment that AddressSanitizer's fake stack,
// detect_stack_use_after_return, does not keep, and the aligned move faults.)
template <uint8_t A>
void activate(const float* a, float* h, int n) {
  if constexpr (A == kRelu) {
    activate_plain<A>(a, h, n);
  } else {
    int j = 0;
    for (; j + kLanes <= n; j += kLanes) store(h + j, activate_vector<A>(load<VecF>(a + j)));
    if (j < n) activate_plain<A>(a + j, h + j, n - j);
  }
}
#else
template <uint8_t A>
void activate(const float* a, float* h, int n) {
  activate_plain<A>(a, h, n);
}
#endif

// a + b * c on eight lanes: fused where the path has FMA, written out so that the compiler cannot
// choose differently per vector width.
inline F8 mul_add8(F8 a, F8 b, F8 c) {
#if defined(__FMA__)
  return reinterpret_cast<F8>(_mm256_fmadd_ps(
      reinterpret_cast<__m256>(b), reinterpret_cast<__m256>(c), reinterpret_cast<__m256>(a)));
#else
  return a + b * c;
#endif
}

// h[j..j+8) spread to match eight rows of a [hidden][K] weight matrix: part p of K, lane e holds
// h[j + (8p + e) / K].
template <int K>
inline void spread_hidden(F8 h8, F8* out) {
  if constexpr (K == 3) {
    out[0] = __builtin_shufflevector(h8, h8, 0, 0, 0, 1, 1, 1, 2, 2);
    out[1] = __builtin_shufflevector(h8, h8, 2, 3, 3, 3, 4, 4, 4, 5);
    out[2] = __builtin_shufflevector(h8, h8, 5, 5, 6, 6, 6, 7, 7, 7);
  } else {
    out[0] = __builtin_shufflevector(h8, h8, 0, 0, 0, 0, 1, 1, 1, 1);
    out[1] = __builtin_shufflevector(h8, h8, 2, 2, 2, 2, 3, 3, 3, 3);
    out[2] = __builtin_shufflevector(h8, h8, 4, 4, 4, 4, 5, 5, 5, 5);
    out[3] = __builtin_shufflevector(h8, h8, 6, 6, 6, 6, 7, 7, 7, 7);
  }
}

// z[k] = b[k] + Σ_j h[j] w[j*K + k]. Blocks of eight units multiply the contiguous 8K weights by
// the spread activations into K vector accumulators (flat lane f sums output f mod K); the lanes
// are then added in increasing f. The same eight-lane operations on every path, so the same
// rounding.
// The sums of output_layer's accumulators after its blocks of eight (units [0, j)), the units
// left and the biases.
template <int K>
inline void finish_output(const F8* acc, const float* h, const float* w, const float* b, int j,
                          int n, float* z) {
  for (int k = 0; k < K; ++k) {
    float s = b[k];
    for (int f = k; f < 8 * K; f += K) s += acc[f / 8][f % 8];
    for (int jj = j; jj < n; ++jj) s += h[jj] * w[jj * K + k];
    z[k] = s;
  }
}

template <int K>
void output_layer(const float* h, const float* w, const float* b, int n, float* z) {
  F8 acc[K] = {};
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    F8 hh[K];
    spread_hidden<K>(load<F8>(h + j), hh);
    for (int p = 0; p < K; ++p) acc[p] = mul_add8(acc[p], hh[p], load<F8>(w + j * K + 8 * p));
  }
  finish_output<K>(acc, h, w, b, j, n, z);
}

// output_layer for two hidden vectors in one pass: each accumulator gets the same operations in
// the same order as in output_layer (the same bits), but the two sets of K chains of dependent
// multiply-adds run side by side, which a single one leaves waiting on their latency.
#if NARDY_KERNEL_LANES == 16 && defined(__AVX512F__)
// AVX-512: both candidates in one 16-lane vector, lanes 0..7 a's and 8..15 b's, each half
// exactly output_layer's eight lanes (the same spread units, weights and multiply-adds), so half
// the shuffles and multiply-add instructions. (The halves joined and split by the compiler's
// shuffles, the permutation and the weights' broadcast in their zero-masking forms with every
// lane kept: the plain intrinsics make GCC 12 warn, as in v_clamp above.)
template <int K>
void output_layer_pair(const float* ha, const float* hb, const float* w, const float* b, int n,
                       float* za, float* zb) {
  __m512i spread[K];  // lane e of part p: unit (8p + e mod 8) / K of its candidate's half
  for (int p = 0; p < K; ++p) {
    int32_t lanes[16];
    for (int e = 0; e < 16; ++e) lanes[e] = (8 * p + e % 8) / K + 8 * (e / 8);
    spread[p] = _mm512_loadu_si512(lanes);
  }
  __m512 acc[K];
  for (int p = 0; p < K; ++p) acc[p] = _mm512_setzero_ps();
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    const F8 a8 = load<F8>(ha + j), b8 = load<F8>(hb + j);
    const __m512 hab =
        __builtin_shufflevector(a8, b8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int p = 0; p < K; ++p) {
      const __m512 wp = _mm512_maskz_broadcast_f32x8(0xffff, _mm256_loadu_ps(w + j * K + 8 * p));
      acc[p] = _mm512_fmadd_ps(_mm512_maskz_permutexvar_ps(0xffff, spread[p], hab), wp, acc[p]);
    }
  }
  F8 acc_a[K], acc_b[K];
  for (int p = 0; p < K; ++p) {
    acc_a[p] = __builtin_shufflevector(acc[p], acc[p], 0, 1, 2, 3, 4, 5, 6, 7);
    acc_b[p] = __builtin_shufflevector(acc[p], acc[p], 8, 9, 10, 11, 12, 13, 14, 15);
  }
  finish_output<K>(acc_a, ha, w, b, j, n, za);
  finish_output<K>(acc_b, hb, w, b, j, n, zb);
}
#else
template <int K>
void output_layer_pair(const float* ha, const float* hb, const float* w, const float* b, int n,
                       float* za, float* zb) {
  F8 acc_a[K] = {}, acc_b[K] = {};
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    F8 sa[K], sb[K];
    spread_hidden<K>(load<F8>(ha + j), sa);
    spread_hidden<K>(load<F8>(hb + j), sb);
    for (int p = 0; p < K; ++p) {
      const F8 wp = load<F8>(w + j * K + 8 * p);
      acc_a[p] = mul_add8(acc_a[p], sa[p], wp);
      acc_b[p] = mul_add8(acc_b[p], sb[p], wp);
    }
  }
  finish_output<K>(acc_a, ha, w, b, j, n, za);
  finish_output<K>(acc_b, hb, w, b, j, n, zb);
}
#endif

// out[0..n) = init[0..n) + Σ_t coef[t] * w[rows[t] * n .. + n), in blocks of 8 vectors whose
// sums stay in registers while the rows stream past; each unit adds the rows in order t.
void add_rows(const float* init, const float* w, int n, const int* rows, const float* coef,
              int num_rows, float* out) {
  constexpr int L = kLanes, kBlock = 8 * kLanes;
  int j = 0;
  for (; j + kBlock <= n; j += kBlock) {
    FV a0 = load<FV>(init + j), a1 = load<FV>(init + j + L), a2 = load<FV>(init + j + 2 * L),
       a3 = load<FV>(init + j + 3 * L), a4 = load<FV>(init + j + 4 * L),
       a5 = load<FV>(init + j + 5 * L), a6 = load<FV>(init + j + 6 * L),
       a7 = load<FV>(init + j + 7 * L);
    for (int t = 0; t < num_rows; ++t) {
      const float d = coef[t];
      const float* row = w + static_cast<size_t>(rows[t]) * n + j;
      a0 += d * load<FV>(row);
      a1 += d * load<FV>(row + L);
      a2 += d * load<FV>(row + 2 * L);
      a3 += d * load<FV>(row + 3 * L);
      a4 += d * load<FV>(row + 4 * L);
      a5 += d * load<FV>(row + 5 * L);
      a6 += d * load<FV>(row + 6 * L);
      a7 += d * load<FV>(row + 7 * L);
    }
    store(out + j, a0);
    store(out + j + L, a1);
    store(out + j + 2 * L, a2);
    store(out + j + 3 * L, a3);
    store(out + j + 4 * L, a4);
    store(out + j + 5 * L, a5);
    store(out + j + 6 * L, a6);
    store(out + j + 7 * L, a7);
  }
  for (; j + L <= n; j += L) {
    FV acc = load<FV>(init + j);
    for (int t = 0; t < num_rows; ++t)
      acc += coef[t] * load<FV>(w + static_cast<size_t>(rows[t]) * n + j);
    store(out + j, acc);
  }
  for (; j + 8 <= n; j += 8) {  // only when kLanes is 16
    F8 acc = load<F8>(init + j);
    for (int t = 0; t < num_rows; ++t)
      acc += coef[t] * load<F8>(w + static_cast<size_t>(rows[t]) * n + j);
    store(out + j, acc);
  }
  for (; j < n; ++j) {
    float s = init[j];
    for (int t = 0; t < num_rows; ++t) s += coef[t] * w[static_cast<size_t>(rows[t]) * n + j];
    out[j] = s;
  }
}

// Bit c set iff lane c of v is non-zero.
inline unsigned nonzero_lanes(FV v) {
#if NARDY_KERNEL_LANES == 16 && defined(__AVX512F__)
  __m512 m;
  __builtin_memcpy(&m, &v, sizeof m);
  return _mm512_cmp_ps_mask(m, _mm512_setzero_ps(), _CMP_NEQ_UQ);
#elif NARDY_KERNEL_LANES == 8 && defined(__AVX__)
  __m256 m;
  __builtin_memcpy(&m, &v, sizeof m);
  return static_cast<unsigned>(
      _mm256_movemask_ps(_mm256_cmp_ps(m, _mm256_setzero_ps(), _CMP_NEQ_UQ)));
#else
  unsigned m = 0;
  for (int c = 0; c < kLanes; ++c) m |= (v[c] != 0.0f ? 1u : 0u) << c;
  return m;
#endif
}

// Lists the inputs where x - base is non-zero (rows[], coef[] = x - base; base null: x itself)
// and returns their number, in increasing order. Blocks of kLanes are compared at once and only
// their non-zero lanes visited.
template <bool kHasBase>
int list_inputs(const float* x, const float* base, int n, int* rows, float* coef) {
  int count = 0;
  int i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const FV d = kHasBase ? load<FV>(x + i) - load<FV>(base + i) : load<FV>(x + i);
    for (unsigned m = nonzero_lanes(d); m; m &= m - 1) {
      const int c = __builtin_ctz(m);
      rows[count] = i + c;
      coef[count] = d[c];
      ++count;
    }
  }
  for (; i < n; ++i) {
    const float d = kHasBase ? x[i] - base[i] : x[i];
    rows[count] = i;
    coef[count] = d;
    count += d != 0.0f;
  }
  return count;
}

int k_nonzero_inputs(const float* x, int n, int* rows, float* coef) {
  return list_inputs<false>(x, nullptr, n, rows, coef);
}

void k_hidden_sums(const KernelNet& net, const float* x, float* sums) {
  int rows[kMaxKernelInputs];
  float coef[kMaxKernelInputs];
  const int n = list_inputs<false>(x, nullptr, net.in, rows, coef);
  add_rows(net.b1, net.w1, net.hidden, rows, coef, n, sums);
}

void k_hidden_sums_from_base(const KernelNet& net, const float* base_sums, const float* base,
                             const float* x, float* sums) {
  int rows[kMaxKernelInputs];
  float coef[kMaxKernelInputs];
  const int n = list_inputs<true>(x, base, net.in, rows, coef);
  add_rows(base_sums, net.w1, net.hidden, rows, coef, n, sums);
}

void k_hidden_sums_from_rows(const KernelNet& net, const float* base_sums, const int* rows,
                             const float* coef, int num_rows, float* sums) {
  add_rows(base_sums, net.w1, net.hidden, rows, coef, num_rows, sums);
}

// h = act(a) by the activation's code (a == h is allowed: element j reads a[j], then writes h[j]).
void activate_any(uint8_t activation, const float* a, float* h, int n) {
  switch (activation) {
    case kSigmoid:
      activate<kSigmoid>(a, h, n);
      break;
    case kTanh:
      activate<kTanh>(a, h, n);
      break;
    default:
      activate<kRelu>(a, h, n);
      break;
  }
}

void output_logits(const float* h, const float* w, const float* b, int n, int k, float* z) {
  if (k == 3)
    output_layer<3>(h, w, b, n, z);
  else
    output_layer<4>(h, w, b, n, z);
}

void k_logits_from_sums(const KernelNet& net, const float* sums, float* hidden, float* z) {
  activate_any(net.activation, sums, hidden, net.hidden);
  output_logits(hidden, net.w2, net.b2, net.hidden, net.k, z);
}

void k_logits_from_sums_pair(const KernelNet& net, const float* const* sums, float* const* hidden,
                             float (*z)[4]) {
  activate_any(net.activation, sums[0], hidden[0], net.hidden);
  activate_any(net.activation, sums[1], hidden[1], net.hidden);
  if (net.k == 3)
    output_layer_pair<3>(hidden[0], hidden[1], net.w2, net.b2, net.hidden, z[0], z[1]);
  else
    output_layer_pair<4>(hidden[0], hidden[1], net.w2, net.b2, net.hidden, z[0], z[1]);
}

// g_k[j] = act'(a_j) Σ_m J[k][m] W2[j][m] into grad (k x hidden); deriv (hidden) is scratch.
void td_gradient(const KernelNet& net, const float* a, const float* h, const float (*jac)[4],
                 float* deriv, float* grad) {
  const int hn = net.hidden, kn = net.k;
  const float* w2 = net.w2;
  switch (net.activation) {
    case kSigmoid:
      for (int j = 0; j < hn; ++j) deriv[j] = h[j] * (1.0f - h[j]);
      break;
    case kTanh:
      for (int j = 0; j < hn; ++j) deriv[j] = 1.0f - h[j] * h[j];
      break;
    default:
      for (int j = 0; j < hn; ++j) deriv[j] = a[j] > 0.0f ? 1.0f : 0.0f;
      break;
  }
  for (int k = 0; k < kn; ++k) {
    float* g = grad + static_cast<size_t>(k) * hn;
    const float* jk = jac[k];
    if (kn == 3) {
      for (int j = 0; j < hn; ++j)
        g[j] = deriv[j] * (jk[0] * w2[j * 3] + jk[1] * w2[j * 3 + 1] + jk[2] * w2[j * 3 + 2]);
    } else {
      for (int j = 0; j < hn; ++j)
        g[j] = deriv[j] * (jk[0] * w2[j * 4] + jk[1] * w2[j * 4 + 1] + jk[2] * w2[j * 4 + 2] +
                           jk[3] * w2[j * 4 + 3]);
    }
  }
}

// row[0..n) += xi * g[0..n): one W1 row of one trace.
inline void add_row_gradient(float* __restrict__ row, const float* __restrict__ g, float xi,
                             int n) {
  for (int j = 0; j < n; ++j) row[j] += xi * g[j];
}

// tw2[j*K + m] += jac[m] * h[j] for every unit j: the W2 block of one trace. Eight units at a
// time as K vectors of the contiguous 8K entries, each entry getting the single multiply-add
// jac[m] * h[j] + tw2 of the plain loop (fused exactly where the compiler fuses `a += b * c`, by
// mul_add8), so the result is the plain loop's bit for bit.
template <int K>
inline void add_w2_gradient(float* tw2, const float* jac, const float* h, int n) {
  float spread_jac[8 * K];
  for (int f = 0; f < 8 * K; ++f) spread_jac[f] = jac[f % K];
  F8 jv[K];
  for (int p = 0; p < K; ++p) jv[p] = load<F8>(spread_jac + 8 * p);
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    F8 hh[K];
    spread_hidden<K>(load<F8>(h + j), hh);
    for (int p = 0; p < K; ++p) {
      float* at = tw2 + j * K + 8 * p;
      store(at, mul_add8(load<F8>(at), jv[p], hh[p]));
    }
  }
  for (; j < n; ++j)
    for (int m = 0; m < K; ++m) tw2[j * K + m] += jac[m] * h[j];
}

// The b1, W2 and b2 blocks of every trace: b1 += g_k, W2 += J[k] h, b2 += J[k].
void add_head_gradient(const KernelNet& net, const float* h, const float (*jac)[4],
                       const float* grad, KernelTraces traces) {
  const int hn = net.hidden, kn = net.k;
  const size_t off_b1 = static_cast<size_t>(net.in) * hn;
  const size_t off_w2 = off_b1 + hn;
  const size_t off_b2 = off_w2 + static_cast<size_t>(hn) * kn;
  for (int k = 0; k < kn; ++k) {
    float* t = traces.data + static_cast<size_t>(k) * traces.trace_size;
    const float* __restrict__ g = grad + static_cast<size_t>(k) * hn;
    float* tb1 = t + off_b1;
    for (int j = 0; j < hn; ++j) tb1[j] += g[j];
    if (kn == 3)
      add_w2_gradient<3>(t + off_w2, jac[k], h, hn);
    else
      add_w2_gradient<4>(t + off_w2, jac[k], h, hn);
    float* tb2 = t + off_b2;
    for (int m = 0; m < kn; ++m) tb2[m] += jac[k][m];
  }
}

void k_td_add_gradient(const KernelNet& net, const float* a, const float* h, const float (*jac)[4],
                       const int* rows, const float* xs, int num_rows, float* deriv, float* grad,
                       KernelTraces traces) {
  const int hn = net.hidden, kn = net.k;
  td_gradient(net, a, h, jac, deriv, grad);
  for (int k = 0; k < kn; ++k) {
    float* t = traces.data + static_cast<size_t>(k) * traces.trace_size;
    const float* g = grad + static_cast<size_t>(k) * hn;
    for (int r = 0; r < num_rows; ++r)
      add_row_gradient(t + static_cast<size_t>(rows[r]) * hn, g, xs[r], hn);
  }
  add_head_gradient(net, h, jac, grad, traces);
}

void k_td_gradient(const KernelNet& net, const float* a, const float* h, const float (*jac)[4],
                   float* deriv, float* grad) {
  td_gradient(net, a, h, jac, deriv, grad);
}

// theta[0..n) += Σ_m c[m] t_m[offset + i] over the kn traces.
inline void apply_traces(float* __restrict__ theta, const float* e, size_t trace_size,
                         size_t offset, size_t n, const float* c, int kn) {
  const float* __restrict__ t0 = e + offset;
  const float* __restrict__ t1 = t0 + trace_size;
  const float* __restrict__ t2 = t1 + trace_size;
  const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
  if (kn == 4) {
    const float* __restrict__ t3 = t2 + trace_size;
    for (size_t i = 0; i < n; ++i) theta[i] += c0 * t0[i] + c1 * t1[i] + c2 * t2[i] + c3 * t3[i];
  } else {
    for (size_t i = 0; i < n; ++i) theta[i] += c0 * t0[i] + c1 * t1[i] + c2 * t2[i];
  }
}

void k_td_update(const KernelNet& net, float* const* params, KernelTraces traces, const float* c,
                 const int* rows, int num_rows) {
  const size_t hn = net.hidden, kn = net.k;
  const size_t off_b1 = static_cast<size_t>(net.in) * hn;
  for (int r = 0; r < num_rows; ++r) {
    const size_t row = static_cast<size_t>(rows[r]) * hn;
    apply_traces(params[0] + row, traces.data, traces.trace_size, row, hn, c, net.k);
  }
  apply_traces(params[1], traces.data, traces.trace_size, off_b1, hn, c, net.k);
  apply_traces(params[2], traces.data, traces.trace_size, off_b1 + hn, hn * kn, c, net.k);
  apply_traces(params[3], traces.data, traces.trace_size, off_b1 + hn + hn * kn, kn, c, net.k);
}

// k_td_add_gradient's trace additions (a gradient already computed by k_td_gradient) followed by
// k_td_update's step, row by row so that each trace row is still in L1 when the step reads it.
// Every number gets the same operations as the two separate kernels, so the same bits.
// The W1-row pass: each row gets its gradient (row_x[i] * grad_k, if row_x is non-null and
// row_x[i] != 0), then its step (if c is non-null), while it is in L1.
inline void rows_pass(const KernelNet& net, float* w1, KernelTraces traces, const float* c,
                      const int* rows, int num_rows, const float* row_x, const float* grad,
                      size_t grad_stride) {
  const size_t hn = net.hidden, kn = net.k;
  for (int r = 0; r < num_rows; ++r) {
    const size_t row = static_cast<size_t>(rows[r]) * hn;
    const float xi = row_x ? row_x[rows[r]] : 0.0f;
    if (xi != 0.0f)
      for (size_t k = 0; k < kn; ++k)
        add_row_gradient(traces.data + k * traces.trace_size + row, grad + k * grad_stride, xi,
                         static_cast<int>(hn));
    if (c) apply_traces(w1 + row, traces.data, traces.trace_size, row, hn, c, net.k);
  }
}

void k_td_rows(const KernelNet& net, float* w1, KernelTraces traces, const float* c,
               const int* rows, int num_rows, const float* row_x, const float* grad,
               size_t grad_stride) {
  rows_pass(net, w1, traces, c, rows, num_rows, row_x, grad, grad_stride);
}

void k_apply_traces(float* theta, KernelTraces traces, size_t offset, size_t n, const float* c,
                    int k) {
  apply_traces(theta, traces.data, traces.trace_size, offset, n, c, k);
}

void k_td_add_gradient_and_update(const KernelNet& net, float* const* params, KernelTraces traces,
                                  const float* c, const int* rows, int num_rows,
                                  const KernelGradient& gradient) {
  const size_t hn = net.hidden, kn = net.k;
  const size_t off_b1 = static_cast<size_t>(net.in) * hn;
  rows_pass(net, c ? params[0] : nullptr, traces, c, rows, num_rows, gradient.row_x, gradient.grad,
            hn);
  add_head_gradient(net, gradient.h, gradient.jac, gradient.grad, traces);
  if (!c) return;
  apply_traces(params[1], traces.data, traces.trace_size, off_b1, hn, c, net.k);
  apply_traces(params[2], traces.data, traces.trace_size, off_b1 + hn, hn * kn, c, net.k);
  apply_traces(params[3], traces.data, traces.trace_size, off_b1 + hn + hn * kn, kn, c, net.k);
}

// apply_traces for `num_steps` steps on one row with the row kept in registers: each element gets
// theta + (c0 t0 + c1 t1 + c2 t2 [+ c3 t3]) per step, written as apply_traces writes it (the same
// expression, so the compiler fuses the same products), one load and store per element in all.
template <int K>
void replay_row(float* theta, const float* e, size_t trace_size, size_t offset, int n,
                const float (*c)[4], int num_steps) {
  const float* t0 = e + offset;
  const float* t1 = t0 + trace_size;
  const float* t2 = t1 + trace_size;
  const float* t3 = K == 4 ? t2 + trace_size : t2;
  int j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    FV a = load<FV>(theta + j);
    const FV e0 = load<FV>(t0 + j), e1 = load<FV>(t1 + j), e2 = load<FV>(t2 + j);
    if constexpr (K == 4) {
      const FV e3 = load<FV>(t3 + j);
      for (int s = 0; s < num_steps; ++s)
        a += c[s][0] * e0 + c[s][1] * e1 + c[s][2] * e2 + c[s][3] * e3;
    } else {
      for (int s = 0; s < num_steps; ++s) a += c[s][0] * e0 + c[s][1] * e1 + c[s][2] * e2;
    }
    store(theta + j, a);
  }
  for (; j < n; ++j) {
    float a = theta[j];
    for (int s = 0; s < num_steps; ++s) {
      if constexpr (K == 4)
        a += c[s][0] * t0[j] + c[s][1] * t1[j] + c[s][2] * t2[j] + c[s][3] * t3[j];
      else
        a += c[s][0] * t0[j] + c[s][1] * t1[j] + c[s][2] * t2[j];
    }
    theta[j] = a;
  }
}

void k_td_replay_row(const KernelNet& net, float* w1, KernelTraces traces, const float (*c)[4],
                     int num_steps, int row) {
  const size_t off = static_cast<size_t>(row) * net.hidden;
  if (net.k == 4)
    replay_row<4>(w1 + off, traces.data, traces.trace_size, off, net.hidden, c, num_steps);
  else
    replay_row<3>(w1 + off, traces.data, traces.trace_size, off, net.hidden, c, num_steps);
}

// ---- Nets with two or more hidden layers ----
//
// Their loops run over widths that need not be multiples of the vector width, where the
// vectoriser's main loop and epilogue differ per path; every multiply-add that meets rounding is
// therefore written as mul_add1 (fused on the FMA paths whatever the compiler vectorises, plain
// on scalar), so that avx2 and avx512 still give the same bits.

// a + b * c: one fused multiply-add where the path has FMA.
inline float mul_add1(float a, float b, float c) {
#if defined(__FMA__)
  return __builtin_fmaf(b, c, a);
#else
  return a + b * c;
#endif
}

// out[k] = Σ_j w[j] g[k·stride + j] for k < kn (one weight row against the K gradients): for
// each k eight-lane multiply-adds, the lanes added in increasing order, then the tail; the K
// chains are independent (the row is loaded once). The same operations on every vector width.
inline void dots(const float* w, const float* g, size_t stride, int n, int kn, float* out) {
  F8 acc[4] = {};
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    const F8 wj = load<F8>(w + j);
    for (int k = 0; k < kn; ++k) acc[k] = mul_add8(acc[k], wj, load<F8>(g + k * stride + j));
  }
  for (int k = 0; k < kn; ++k) {
    float s = 0.0f;
    for (int e = 0; e < 8; ++e) s += acc[k][e];
    for (int jj = j; jj < n; ++jj) s = mul_add1(s, w[jj], g[k * stride + jj]);
    out[k] = s;
  }
}

// y[0..out) = b + Σ_i x[i] w[i] for i < in (a small dense layer; add_rows' job, but with few
// outputs add_rows' one multiply-add chain per vector would wait on its latency, and listing the
// non-zero inputs costs more than it saves on activations): 32 outputs at a time as four
// eight-lane vectors, each with two partial sums (rows i even and odd) added at the end, so eight
// independent chains. The same operations on every path.
void dense_layer(const float* b, const float* w, int out, const float* x, int in, float* y) {
  auto row = [&](int i, int j) { return w + static_cast<size_t>(i) * out + j; };
  int j = 0;
  for (; j + 32 <= out; j += 32) {
    F8 even[4] = {}, odd[4] = {};
    int i = 0;
    for (; i + 2 <= in; i += 2) {
      const F8 d0 = F8{} + x[i], d1 = F8{} + x[i + 1];
      const float *r0 = row(i, j), *r1 = row(i + 1, j);
      for (int p = 0; p < 4; ++p) {
        even[p] = mul_add8(even[p], d0, load<F8>(r0 + 8 * p));
        odd[p] = mul_add8(odd[p], d1, load<F8>(r1 + 8 * p));
      }
    }
    if (i < in) {
      const F8 d0 = F8{} + x[i];
      for (int p = 0; p < 4; ++p) even[p] = mul_add8(even[p], d0, load<F8>(row(i, j) + 8 * p));
    }
    for (int p = 0; p < 4; ++p) store(y + j + 8 * p, load<F8>(b + j + 8 * p) + (even[p] + odd[p]));
  }
  for (; j + 8 <= out; j += 8) {
    F8 even = {}, odd = {};
    int i = 0;
    for (; i + 2 <= in; i += 2) {
      even = mul_add8(even, F8{} + x[i], load<F8>(row(i, j)));
      odd = mul_add8(odd, F8{} + x[i + 1], load<F8>(row(i + 1, j)));
    }
    if (i < in) even = mul_add8(even, F8{} + x[i], load<F8>(row(i, j)));
    store(y + j, load<F8>(b + j) + (even + odd));
  }
  for (; j < out; ++j) {
    float even = 0.0f, odd = 0.0f;
    int i = 0;
    for (; i + 2 <= in; i += 2) {
      even = mul_add1(even, x[i], *row(i, j));
      odd = mul_add1(odd, x[i + 1], *row(i + 1, j));
    }
    if (i < in) even = mul_add1(even, x[i], *row(i, j));
    y[j] = b[j] + (even + odd);
  }
}

// act'(a) from the activation h = act(a): h(1 - h), 1 - h², or 1 where h > 0 (relu).
inline float activation_derivative(uint8_t activation, float h) {
  if (activation == kSigmoid) return h * (1.0f - h);
  if (activation == kTanh) return mul_add1(1.0f, -h, h);
  return h > 0.0f ? 1.0f : 0.0f;
}

// Offsets of the hidden layers in the concatenated activations; returns the total units.
inline int hidden_offsets(const KernelUpper& up, int* offsets) {
  int total = 0;
  for (int l = 0; l < up.num_layers; ++l) {
    offsets[l] = total;
    total += up.layers[l].in;
  }
  return total;
}

void k_upper_forward(const KernelUpper& up, const float* sums, float* hidden, float* z) {
  activate_any(up.activation, sums, hidden, up.layers[0].in);
  const float* h = hidden;
  float* next = hidden + up.layers[0].in;
  for (int l = 0; l + 1 < up.num_layers; ++l) {
    const KernelLayer& layer = up.layers[l];
    dense_layer(layer.b, layer.w, layer.out, h, layer.in, next);
    activate_any(up.activation, next, next, layer.out);
    h = next;
    next += layer.out;
  }
  const KernelLayer& out = up.layers[up.num_layers - 1];
  output_logits(h, out.w, out.b, out.in, out.out, z);
}

void k_upper_backprop(const KernelUpper& up, const float* hidden, const float (*jac)[4], int kn,
                      float* grad) {
  int off[kMaxKernelUpperLayers];
  const size_t total = static_cast<size_t>(hidden_offsets(up, off));
  const int last = up.num_layers - 1;
  const KernelLayer& out = up.layers[last];
  // The last hidden layer: g_k[j] = act'(h_j) Σ_m J[k][m] W_out[j][m].
  for (int k = 0; k < kn; ++k) {
    const float* h = hidden + off[last];
    float* gl = grad + k * total + off[last];
    const float* jk = jac[k];
    for (int j = 0; j < out.in; ++j) {
      const float* w = out.w + static_cast<size_t>(j) * kn;
      float s = jk[0] * w[0];
      for (int m = 1; m < kn; ++m) s = mul_add1(s, jk[m], w[m]);
      gl[j] = activation_derivative(up.activation, h[j]) * s;
    }
  }
  // Down the further layers: g_k,l[i] = act'(h_l[i]) Σ_j W[i][j] g_k,l+1[j].
  for (int l = last - 1; l >= 0; --l) {
    const KernelLayer& layer = up.layers[l];
    const float* hl = hidden + off[l];
    for (int i = 0; i < layer.in; ++i) {
      float s[4];
      dots(layer.w + static_cast<size_t>(i) * layer.out, grad + off[l + 1], total, layer.out, kn,
           s);
      const float d = activation_derivative(up.activation, hl[i]);
      for (int k = 0; k < kn; ++k) grad[k * total + off[l] + i] = d * s[k];
    }
  }
}

void k_upper_add_gradient(const KernelUpper& up, const float* hidden, const float (*jac)[4], int kn,
                          const float* grad, KernelTraces traces, size_t off_b1) {
  int off[kMaxKernelUpperLayers];
  const int total = hidden_offsets(up, off);
  const int last = up.num_layers - 1;
  for (int k = 0; k < kn; ++k) {
    float* t = traces.data + static_cast<size_t>(k) * traces.trace_size + off_b1;
    const float* __restrict__ g = grad + static_cast<size_t>(k) * total;
    for (int j = 0; j < up.layers[0].in; ++j) t[j] += g[j];  // b1
    t += up.layers[0].in;
    for (int l = 0; l < last; ++l) {
      const KernelLayer& layer = up.layers[l];
      const float* h = hidden + off[l];
      const float* gl = g + off[l + 1];
      for (int i = 0; i < layer.in; ++i)
        add_row_gradient(t + static_cast<size_t>(i) * layer.out, gl, h[i], layer.out);
      t += static_cast<size_t>(layer.in) * layer.out;
      for (int j = 0; j < layer.out; ++j) t[j] += gl[j];
      t += layer.out;
    }
    const KernelLayer& out = up.layers[last];
    if (kn == 3)
      add_w2_gradient<3>(t, jac[k], hidden + off[last], out.in);
    else
      add_w2_gradient<4>(t, jac[k], hidden + off[last], out.in);
    t += static_cast<size_t>(out.in) * kn;
    for (int m = 0; m < kn; ++m) t[m] += jac[k][m];
  }
}

// Eight independent multiply-add chains of kLanes floats: enough to keep two FMA units with a
// latency of four cycles busy.
constexpr int kProbeChains = 8;

float k_peak_probe(long iterations, float x) {
  FV acc[kProbeChains];
  FV mul, add;
  for (int c = 0; c < kLanes; ++c) {
    mul[c] = 0.999f;
    add[c] = 1e-3f;
  }
  for (int i = 0; i < kProbeChains; ++i)
    for (int c = 0; c < kLanes; ++c) acc[i][c] = x + static_cast<float>(i + c);
  for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 8
    for (int i = 0; i < kProbeChains; ++i) acc[i] = acc[i] * mul + add;
  }
  float s = 0.0f;
  for (int i = 0; i < kProbeChains; ++i)
    for (int c = 0; c < kLanes; ++c) s += acc[i][c];
  return s;
}

constexpr FastKernels make_kernels(SimdPath path) {
  return FastKernels{path,
                     k_nonzero_inputs,
                     k_hidden_sums,
                     k_hidden_sums_from_base,
                     k_hidden_sums_from_rows,
                     k_logits_from_sums,
                     k_logits_from_sums_pair,
                     k_td_add_gradient,
                     k_td_update,
                     k_td_gradient,
                     k_td_add_gradient_and_update,
                     k_td_replay_row,
                     k_upper_forward,
                     k_upper_backprop,
                     k_upper_add_gradient,
                     k_td_rows,
                     k_apply_traces,
                     k_peak_probe,
                     2 * kProbeChains * kLanes};
}

}  // namespace
}  // namespace nardy
