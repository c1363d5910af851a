// Whether this translation unit is compiled with a sanitizer, as gcc says it (__SANITIZE_ADDRESS__,
// __SANITIZE_THREAD__) and as Clang 16 does (__has_feature only). The runtime leaves its
// interpositions out of sanitizer builds: the sanitizers intercept the same functions themselves.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PARPERF_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PARPERF_SANITIZED 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define PARPERF_THREAD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PARPERF_THREAD_SANITIZED 1
#endif
#endif
