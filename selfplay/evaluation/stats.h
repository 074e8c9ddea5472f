// selfplay/evaluation/stats.h — the statistics behind arena, tournament and rollout reports.
//
// Everything here is plain arithmetic on doubles (no randomness, no allocation beyond the
// returned vectors), so tests can recompute it independently.
//
// Elo is the logistic scale: expected score s = 1 / (1 + 10^(-elo/400)), elo = -400 log10(1/s - 1).
//
// SPRT (Wald 1945) on pair scores uses the normal (generalised SPRT) approximation of
// fishtest's pentanomial test (M. Van den Bergh, "Normalized Elo / GSPRT", 2019): with n pair
// scores x_i in [0, 1], sample mean m and sample variance v,
//     LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v),      s_k = score_from_elo(elo_k),
// compared with the Wald bounds  lower = ln(β / (1 - α)),  upper = ln((1 - β) / α).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace nardy {

// ---- Quantiles ----
// Standard normal quantile, p in (0, 1) (Acklam's rational approximation, |error| < 1.2e-9).
double normal_quantile(double p);
// Student's t quantile with `df` > 0 degrees of freedom (Cornish–Fisher expansion around the
// normal quantile; relative error < 1e-3 for df >= 3, exact tabulated values for df 1 and 2).
double student_t_quantile(double p, double df);

// ---- Means ----
struct MeanEstimate {
  int64_t n = 0;
  double mean = 0;
  double variance = 0;                 // sample variance (n - 1 denominator); 0 when n < 2
  double se = 0;                       // standard error of the mean, sqrt(variance / n)
  double ci95_low = 0, ci95_high = 0;  // mean ± t(0.975, n-1) se; ± infinity when n < 2
};
MeanEstimate estimate_mean(std::span<const double> xs);
// The same from running sums (n, Σx, Σx²).
MeanEstimate estimate_mean(int64_t n, double sum, double sum_sq);

// ---- Elo ----
double score_from_elo(double elo);
// Elo of an expected score; the score is clamped to [1e-6, 1 - 1e-6] so the result is finite.
double elo_from_score(double score);

// ---- SPRT ----
struct SprtBounds {
  double lower = 0, upper = 0;
};
SprtBounds sprt_bounds(double alpha, double beta);
// LLR of n pair scores with running sums Σx and Σx² (see the header comment). 0 when the
// sample variance is 0 (no information about the spread yet).
double sprt_llr(int64_t n, double sum, double sum_sq, double elo0, double elo1);

// ---- Ratings from pairwise results (tournaments) ----
struct PairwiseResult {
  int a = 0, b = 0;   // player indices
  double elo = 0;     // measured Elo of a over b
  double elo_se = 0;  // its standard error (> 0)
};
struct Rating {
  double elo = 0, se = 0, ci95_low = 0, ci95_high = 0;
};
// Weighted least squares: minimise Σ ((r_a - r_b - elo) / se)² with r_0 = 0 (player 0 is the
// anchor). Standard errors come from the inverse normal matrix. Players not connected to the
// anchor through results get NaN. Needs n >= 1.
std::vector<Rating> least_squares_ratings(int n, std::span<const PairwiseResult> results);

}  // namespace nardy
