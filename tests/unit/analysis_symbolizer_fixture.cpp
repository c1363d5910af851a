// The program analysis_symbolizer_test symbolizes. The build compiles it several ways (clang and gcc,
// -O0 and -O2 -fopenmp, PIE and not) and runs each build once: `fixture SITES_FILE` writes one line
// "<marker> <hex address>" per site, with each address module-relative (the runtime address minus the
// load bias) and a return address, as OMPT's codeptr_ra is. The test then expects each address to map
// to the function named in the marker's comment and to the line that carries the marker comment
// `LINE:<marker>`.
//
// Deliberately plain C-style code: the same source must build with both compilers, with and without
// OpenMP, and no call that records a site may be a tail call (its return address would be lost).
#include <link.h>
#include <stdint.h>
#include <stdio.h>

#ifdef _OPENMP
#include <omp.h>
#define FIXTURE_THREAD_NUM() omp_get_thread_num()
#else
#define FIXTURE_THREAD_NUM() 0
#endif

namespace {

struct Site {
  const char* marker;
  uintptr_t address;
};
Site sites[16];
int site_count = 0;
int site_lock = 0;

int store_bias(struct dl_phdr_info* info, size_t, void* bias) {
  *static_cast<uintptr_t*>(bias) = info->dlpi_addr;  // the first object is the program: link_map::l_addr
  return 1;
}

uintptr_t load_bias() {
  uintptr_t bias = 0;
  dl_iterate_phdr(store_bias, &bias);
  return bias;
}

// Keeps the first address of each marker; OpenMP callbacks may come from several threads.
void record(const char* marker, const void* return_address) {
  while (__atomic_test_and_set(&site_lock, __ATOMIC_ACQUIRE)) {
  }
  bool known = false;
  for (int i = 0; i < site_count; ++i) known = known || sites[i].marker == marker;
  if (!known && site_count < 16) sites[site_count++] = {marker, (uintptr_t)return_address - load_bias()};
  __atomic_clear(&site_lock, __ATOMIC_RELEASE);
}

}  // namespace

__attribute__((noinline)) int record_site(const char* marker) {
  record(marker, __builtin_return_address(0));
  return 1;
}

__attribute__((noinline, cold)) int record_cold_site(const char* marker) {
  record(marker, __builtin_return_address(0));
  return 1;
}

namespace fixture {
// function: fixture::compute(int)
__attribute__((noinline)) int compute(int n) {
  int recorded = record_site("compute_call"); /* LINE:compute_call */
  // A call to a cold function is predicted never to run, so gcc moves it out of line to
  // `compute(int).cold`; it does run.
  if (n < 1000) recorded += record_cold_site("cold_call"); /* LINE:cold_call */
  return recorded * n + 1;
}
}  // namespace fixture

// function: main
int main(int argc, char** argv) {
  int total = fixture::compute(argc);
  total += record_site("main_call");      /* LINE:main_call */
#pragma omp parallel reduction(+ : total) /* LINE:parallel_construct */
  {
    if (FIXTURE_THREAD_NUM() == 0) total += record_site("parallel_body"); /* LINE:parallel_body */
  }
#pragma omp parallel for reduction(+ : total) /* LINE:for_construct */
  for (int i = 0; i < 64; ++i) {
    if (i == 0) total += record_site("for_body"); /* LINE:for_body */
  }
  FILE* out = argc > 1 ? fopen(argv[1], "w") : stdout;
  if (out == nullptr) return 2;
  for (int i = 0; i < site_count; ++i)
    fprintf(out, "%s %lx\n", sites[i].marker, (unsigned long)sites[i].address);
  if (out != stdout) fclose(out);
  return total > 0 ? 0 : 1;
}

// With clang's libomp, an OMPT tool in the program itself reports the construct addresses the
// runtime's collector records: the return addresses of the calls into the OpenMP runtime.
#if defined(__clang__) && defined(_OPENMP)
#include <omp-tools.h>

namespace {

// Called by the thread that starts the region, so the regions come in program order.
int parallel_regions = 0;

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t*, unsigned, int,
                       const void* codeptr_ra) {
  record(parallel_regions++ == 0 ? "ompt_parallel_begin" : "ompt_parallel_for_begin", codeptr_ra);
}

void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, uint64_t,
             const void* codeptr_ra) {
  bool loop = type == ompt_work_loop || type == ompt_work_loop_static;
  if (loop && endpoint == ompt_scope_begin) record("ompt_loop_begin", codeptr_ra);
}

int tool_initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  set_callback(ompt_callback_parallel_begin, reinterpret_cast<ompt_callback_t>(&on_parallel_begin));
  set_callback(ompt_callback_work, reinterpret_cast<ompt_callback_t>(&on_work));
  return 1;
}

void tool_finalize(ompt_data_t*) {}

}  // namespace

extern "C" ompt_start_tool_result_t* ompt_start_tool(unsigned, const char*) {
  static ompt_start_tool_result_t result = {&tool_initialize, &tool_finalize, {0}};
  return &result;
}
#endif
