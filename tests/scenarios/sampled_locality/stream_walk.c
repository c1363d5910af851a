// The ground-truth programs of the sampled locality mode (sampled_locality_test.cpp), with one load
// per step at -O1 -fno-vectorize (the loop's other values stay in registers):
//   stream WORDS REPEATS   sums an array of WORDS longs REPEATS times in order: unit stride (SL 1);
//                          each word is reused after WORDS - 1 others
//   walk WORDS STEPS       loads STEPS uniformly random words of an array of WORDS longs: no
//                          short strides (SL ~ 0), reuse distances spread up to WORDS
// The arrays come from calloc, zero and never written: the programs make no access but these loops'.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long stream(const long* words, long count, long repeats) {
  long sum = 0;
  for (long r = 0; r < repeats; ++r)
    for (long i = 0; i < count; ++i) sum += words[i];
  return sum;
}

long random_walk(const long* words, long count, long steps) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  long sum = 0;
  for (long s = 0; s < steps; ++s) {
    state ^= state << 13;  // xorshift64
    state ^= state >> 7;
    state ^= state << 17;
    sum += words[(state >> 11) % (uint64_t)count];
  }
  return sum;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s stream|walk WORDS REPEATS|STEPS\n", argv[0]);
    return 2;
  }
  const long count = atol(argv[2]);
  const long times = atol(argv[3]);
  long* words = calloc((size_t)count, sizeof *words);
  if (words == NULL) return 1;
  const long sum =
      strcmp(argv[1], "stream") == 0 ? stream(words, count, times) : random_walk(words, count, times);
  printf("sum %ld\n", sum);
  free(words);
  return 0;
}
