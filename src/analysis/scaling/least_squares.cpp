#include "analysis/scaling/least_squares.hpp"

#include <cmath>
#include <cstddef>

namespace parperf::analysis::scaling {

std::optional<std::vector<double>> solve_least_squares(const LeastSquaresProblem& problem) {
  const std::size_t n = problem.rows.size();
  if (n == 0 || problem.values.size() != n) return std::nullopt;
  const std::size_t k = problem.rows.front().size();
  if (k == 0 || n < k) return std::nullopt;

  // A = sqrt(W)·X and b = sqrt(W)·y, column-major for the reflections.
  std::vector<std::vector<double>> a(k, std::vector<double>(n));
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (problem.rows[i].size() != k) return std::nullopt;
    const double w = problem.weights.empty() ? 1.0 : problem.weights[i];
    if (!(w > 0) || !std::isfinite(w)) return std::nullopt;
    const double root = std::sqrt(w);
    for (std::size_t c = 0; c < k; ++c) a[c][i] = root * problem.rows[i][c];
    b[i] = root * problem.values[i];
  }
  std::vector<double> scale(k, 1.0);
  for (std::size_t c = 0; c < k; ++c) {
    double norm = 0;
    for (const double x : a[c]) norm += x * x;
    norm = std::sqrt(norm);
    if (!(norm > 0) || !std::isfinite(norm)) return std::nullopt;  // a column of zeros
    scale[c] = norm;
    for (double& x : a[c]) x /= norm;
  }

  // Householder QR: after step c, column c is zero below the diagonal and b holds Qᵀb.
  for (std::size_t c = 0; c < k; ++c) {
    double norm = 0;
    for (std::size_t i = c; i < n; ++i) norm += a[c][i] * a[c][i];
    norm = std::sqrt(norm);
    // Unit-norm columns: a remaining part this small means column c lies in the span of the others.
    if (norm < 1e-10) return std::nullopt;
    const double alpha = a[c][c] > 0 ? -norm : norm;
    std::vector<double> v(n, 0.0);
    v[c] = a[c][c] - alpha;
    for (std::size_t i = c + 1; i < n; ++i) v[i] = a[c][i];
    double vv = 0;
    for (std::size_t i = c; i < n; ++i) vv += v[i] * v[i];
    if (vv == 0) continue;
    auto reflect = [&](std::vector<double>& column) {
      double dot = 0;
      for (std::size_t i = c; i < n; ++i) dot += v[i] * column[i];
      const double factor = 2 * dot / vv;
      for (std::size_t i = c; i < n; ++i) column[i] -= factor * v[i];
    };
    for (std::size_t other = c; other < k; ++other) reflect(a[other]);
    reflect(b);
  }

  // Back substitution in R c = Qᵀb, then undo the column scaling.
  std::vector<double> coefficients(k);
  for (std::size_t c = k; c-- > 0;) {
    double sum = b[c];
    for (std::size_t other = c + 1; other < k; ++other) sum -= a[other][c] * coefficients[other];
    coefficients[c] = sum / a[c][c];
  }
  for (std::size_t c = 0; c < k; ++c) {
    coefficients[c] /= scale[c];
    if (!std::isfinite(coefficients[c])) return std::nullopt;
  }
  return coefficients;
}

}  // namespace parperf::analysis::scaling
