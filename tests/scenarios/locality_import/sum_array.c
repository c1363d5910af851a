/* Fills an array of 1000 ints, then sums it: 1000 stores and 1000 loads at the array's addresses.
   Prints the array's address (as valgrind runs it) for the test to find those accesses. */
#include <stdio.h>

static int data[1000];

int main(void) {
  for (int i = 0; i < 1000; ++i) data[i] = i;
  long sum = 0;
  for (int i = 0; i < 1000; ++i) sum += data[i];
  printf("%p %ld\n", (void*)data, sum);
  return sum == 499500 ? 0 : 1;
}
