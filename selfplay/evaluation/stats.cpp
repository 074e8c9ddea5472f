#include "selfplay/evaluation/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace nardy {

double normal_quantile(double p) {
  // P. J. Acklam, "An algorithm for computing the inverse normal cumulative distribution
  // function" (2003): rational approximations in a central and two tail regions.
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  if (p <= 0) return -std::numeric_limits<double>::infinity();
  if (p >= 1) return std::numeric_limits<double>::infinity();
  constexpr double p_low = 0.02425;
  if (p < p_low) {
    double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - p_low) return -normal_quantile(1 - p);
  double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double student_t_quantile(double p, double df) {
  if (df <= 0) return std::numeric_limits<double>::quiet_NaN();
  if (df == 1) return std::tan(std::numbers::pi * (p - 0.5));
  if (df == 2) return (2 * p - 1) / std::sqrt(2 * p * (1 - p));
  // Abramowitz & Stegun 26.7.5 (Cornish–Fisher expansion in 1/df).
  const double z = normal_quantile(p), z2 = z * z;
  const double z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
  const double g1 = (z3 + z) / 4;
  const double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
  return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) + g4 / (df * df * df * df);
}

MeanEstimate estimate_mean(int64_t n, double sum, double sum_sq) {
  MeanEstimate e;
  e.n = n;
  if (n == 0) return e;
  e.mean = sum / static_cast<double>(n);
  if (n < 2) {
    e.ci95_low = -std::numeric_limits<double>::infinity();
    e.ci95_high = std::numeric_limits<double>::infinity();
    return e;
  }
  e.variance = std::max(0.0, (sum_sq - sum * e.mean) / static_cast<double>(n - 1));
  e.se = std::sqrt(e.variance / static_cast<double>(n));
  const double t = student_t_quantile(0.975, static_cast<double>(n - 1));
  e.ci95_low = e.mean - t * e.se;
  e.ci95_high = e.mean + t * e.se;
  return e;
}

MeanEstimate estimate_mean(std::span<const double> xs) {
  // Two-pass for accuracy; the running-sum overload shares the CI arithmetic.
  if (xs.empty()) return {};
  double sum = 0;
  for (double x : xs) sum += x;
  const double mean = sum / static_cast<double>(xs.size());
  double ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  // sum_sq chosen so that (sum_sq - sum * mean) == ss exactly in real arithmetic.
  return estimate_mean(static_cast<int64_t>(xs.size()), sum, ss + sum * mean);
}

double score_from_elo(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

double elo_from_score(double score) {
  score = std::clamp(score, 1e-6, 1 - 1e-6);
  return -400.0 * std::log10(1.0 / score - 1.0);
}

SprtBounds sprt_bounds(double alpha, double beta) {
  return {std::log(beta / (1 - alpha)), std::log((1 - beta) / alpha)};
}

double sprt_llr(int64_t n, double sum, double sum_sq, double elo0, double elo1) {
  if (n < 2) return 0;
  const MeanEstimate e = estimate_mean(n, sum, sum_sq);
  if (e.variance <= 0) return 0;
  const double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
  return static_cast<double>(n) * (s1 - s0) * (2 * e.mean - s0 - s1) / (2 * e.variance);
}

std::vector<Rating> least_squares_ratings(int n, std::span<const PairwiseResult> results) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Rating> out(static_cast<size_t>(n), Rating{nan, nan, nan, nan});
  if (n <= 0) return out;
  out[0] = Rating{0, 0, 0, 0};
  // Players connected to the anchor (breadth-first over results with a usable se).
  std::vector<int> idx(static_cast<size_t>(n), -1);  // unknown index of each connected player
  std::vector<int> order{0};
  std::vector<bool> seen(static_cast<size_t>(n), false);
  seen[0] = true;
  for (size_t head = 0; head < order.size(); ++head) {
    for (const auto& r : results) {
      if (!(r.elo_se > 0) || !std::isfinite(r.elo)) continue;
      int other = r.a == order[head] ? r.b : (r.b == order[head] ? r.a : -1);
      if (other >= 0 && other < n && !seen[static_cast<size_t>(other)]) {
        seen[static_cast<size_t>(other)] = true;
        order.push_back(other);
      }
    }
  }
  const int m = static_cast<int>(order.size()) - 1;  // unknowns: connected players but the anchor
  if (m == 0) return out;
  for (int k = 1; k <= m; ++k) idx[static_cast<size_t>(order[static_cast<size_t>(k)])] = k - 1;
  // Normal equations A r = b, A = Σ w (e_a - e_b)(e_a - e_b)^T, b = Σ w elo (e_a - e_b).
  std::vector<double> A(static_cast<size_t>(m * m), 0.0), rhs(static_cast<size_t>(m), 0.0);
  auto at = [&](int i, int j) -> double& { return A[static_cast<size_t>(i * m + j)]; };
  for (const auto& r : results) {
    if (!(r.elo_se > 0) || !std::isfinite(r.elo) || r.a < 0 || r.b < 0 || r.a >= n || r.b >= n)
      continue;
    if (!seen[static_cast<size_t>(r.a)] || !seen[static_cast<size_t>(r.b)]) continue;
    const double w = 1.0 / (r.elo_se * r.elo_se);
    const int ia = idx[static_cast<size_t>(r.a)], ib = idx[static_cast<size_t>(r.b)];
    if (ia >= 0) {
      at(ia, ia) += w;
      rhs[static_cast<size_t>(ia)] += w * r.elo;
    }
    if (ib >= 0) {
      at(ib, ib) += w;
      rhs[static_cast<size_t>(ib)] -= w * r.elo;
    }
    if (ia >= 0 && ib >= 0) {
      at(ia, ib) -= w;
      at(ib, ia) -= w;
    }
  }
  // Gauss–Jordan inverse of A (symmetric positive definite for a connected graph).
  std::vector<double> inv(static_cast<size_t>(m * m), 0.0);
  auto iv = [&](int i, int j) -> double& { return inv[static_cast<size_t>(i * m + j)]; };
  for (int i = 0; i < m; ++i) iv(i, i) = 1;
  for (int col = 0; col < m; ++col) {
    int piv = col;
    for (int r = col + 1; r < m; ++r)
      if (std::abs(at(r, col)) > std::abs(at(piv, col))) piv = r;
    if (std::abs(at(piv, col)) < 1e-300) return out;  // cannot happen when connected
    for (int j = 0; j < m; ++j) {
      std::swap(at(col, j), at(piv, j));
      std::swap(iv(col, j), iv(piv, j));
    }
    const double d = at(col, col);
    for (int j = 0; j < m; ++j) {
      at(col, j) /= d;
      iv(col, j) /= d;
    }
    for (int r = 0; r < m; ++r) {
      if (r == col) continue;
      const double f = at(r, col);
      if (f == 0) continue;
      for (int j = 0; j < m; ++j) {
        at(r, j) -= f * at(col, j);
        iv(r, j) -= f * iv(col, j);
      }
    }
  }
  const double z = normal_quantile(0.975);
  for (int k = 1; k <= m; ++k) {
    const int p = order[static_cast<size_t>(k)], i = k - 1;
    double r = 0;
    for (int j = 0; j < m; ++j) r += iv(i, j) * rhs[static_cast<size_t>(j)];
    const double se = std::sqrt(std::max(0.0, iv(i, i)));
    out[static_cast<size_t>(p)] = Rating{r, se, r - z * se, r + z * se};
  }
  return out;
}

}  // namespace nardy
