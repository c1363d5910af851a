/* Matrix products whose locality is known by construction (built with `parperf cc`):
 *   multiply_naive       C += A * B with i-j-k loops: B is walked down its columns, a stride of N
 *                        words, so poor spatial locality
 *   multiply_transposed  C += A * Bt with Bt = transpose(B): both operands walked along rows
 *   multiply_blocked     i-j-k in tiles of 16: the tiles of A, B and C are reused while they are
 *                        recent, so better temporal locality than the naive order
 *   sweep                one pass over an array, unit stride          (spatial locality 1)
 *   sweep_stride4        every fourth word of an array, stride 4      (spatial locality 1/4)
 * Each function's accesses go through `volatile`-free plain C so the compiler keeps one load per
 * element at -O1 -fno-vectorize; the checks sum the results so nothing is optimised away. */
#include <stdio.h>
#include <stdlib.h>

enum { N = 96, TILE = 16, SWEEP = 65536 };

static double a[N][N], b[N][N], bt[N][N], c[N][N];
static double line[SWEEP * 4];

__attribute__((noinline)) void multiply_naive(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = 0;
      for (int k = 0; k < N; ++k) sum += a[i][k] * b[k][j];
      c[i][j] += sum;
    }
}

__attribute__((noinline)) void multiply_transposed(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = 0;
      for (int k = 0; k < N; ++k) sum += a[i][k] * bt[j][k];
      c[i][j] += sum;
    }
}

__attribute__((noinline)) void multiply_blocked(void) {
  for (int ii = 0; ii < N; ii += TILE)
    for (int jj = 0; jj < N; jj += TILE)
      for (int kk = 0; kk < N; kk += TILE)
        for (int i = ii; i < ii + TILE; ++i)
          for (int j = jj; j < jj + TILE; ++j) {
            double sum = 0;
            for (int k = kk; k < kk + TILE; ++k) sum += a[i][k] * b[k][j];
            c[i][j] += sum;
          }
}

__attribute__((noinline)) double sweep(void) {
  double sum = 0;
  for (int i = 0; i < SWEEP; ++i) sum += line[i];
  return sum;
}

__attribute__((noinline)) double sweep_stride4(void) {
  double sum = 0;
  for (int i = 0; i < SWEEP * 4; i += 4) sum += line[i];
  return sum;
}

int main(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      a[i][j] = (double)(i + j) / N;
      b[i][j] = (double)(i - j) / N;
      bt[j][i] = b[i][j];
    }
  for (int i = 0; i < SWEEP * 4; ++i) line[i] = i % 7;
  multiply_naive();
  multiply_transposed();
  multiply_blocked();
  double total = sweep() + sweep_stride4();
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) total += c[i][j];
  printf("checksum %.6f\n", total);
  return 0;
}
