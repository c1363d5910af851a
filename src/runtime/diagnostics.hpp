// Messages from the runtime to the user: one line each on stderr, prefixed "parperf: ".
// The program's own output is never touched; stdout is not used.
#pragma once

#include <cstddef>

namespace parperf::runtime {

// printf-style warning. Not async-signal-safe: use SignalSafeLine from signal handlers.
void warn(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Assembles a message from pieces without locale, malloc or stdio, then writes it with one write(2).
class SignalSafeLine {
 public:
  SignalSafeLine& operator<<(const char* text) noexcept;
  SignalSafeLine& operator<<(long long number) noexcept;
  void emit() noexcept;  // appends a newline and writes "parperf: <message>" to stderr

 private:
  char buffer_[1024] = "parperf: ";
  std::size_t length_ = 9;
};

}  // namespace parperf::runtime
