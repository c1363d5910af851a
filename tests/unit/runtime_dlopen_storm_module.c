/* The library runtime_dlopen_storm_test loads and unloads in a loop: a little work of its own, so
 * that samples land in its code while it comes and goes. */
/* Exported whatever the build's default visibility (the project's is hidden). */
__attribute__((visibility("default"))) double storm_module_work(int iterations);

double storm_module_work(int iterations) {
  volatile double sum = 0;
  for (int i = 0; i < iterations; ++i) sum = sum + (double)i * 0.5;
  return sum;
}
