// Weighted linear least squares for the few unknowns of a scaling model (at most a handful).
//
// Solved by Householder QR of the weighted design matrix rather than the normal equations: the
// columns of a model (1, p^-2, p^3·log2(p)^2 ...) differ by many orders of magnitude, and the normal
// equations would square that condition number. Columns are scaled to unit norm first, for the
// same reason. A rank-deficient system (two columns alike on the given points) is reported, not
// solved into huge cancelling coefficients.
#pragma once

#include <optional>
#include <span>
#include <vector>

namespace parperf::analysis::scaling {

// Row-major design: rows[i][k] is column k at observation i.
struct LeastSquaresProblem {
  std::vector<std::vector<double>> rows;
  std::vector<double> values;
  std::vector<double> weights;  // one per row, > 0; empty: all 1
};

// The coefficients minimising Σ_i w_i (y_i − Σ_k c_k x_ik)²; nothing when there are fewer rows
// than unknowns or the columns are (numerically) dependent.
std::optional<std::vector<double>> solve_least_squares(const LeastSquaresProblem& problem);

}  // namespace parperf::analysis::scaling
