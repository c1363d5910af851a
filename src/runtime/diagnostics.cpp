#include "runtime/diagnostics.hpp"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>

#include "runtime/file_size_signal.hpp"

namespace parperf::runtime {

void warn(const char* format, ...) {
  char line[1024];
  int length = std::snprintf(line, sizeof line, "parperf: ");
  va_list args;
  va_start(args, format);
  const int body =
      std::vsnprintf(line + length, sizeof line - static_cast<std::size_t>(length) - 1, format, args);
  va_end(args);
  if (body > 0) length += body;
  if (length > static_cast<int>(sizeof line) - 2) length = static_cast<int>(sizeof line) - 2;
  line[length++] = '\n';
  const FileSizeSignalHeld no_signal;  // stderr may be a file past the program's RLIMIT_FSIZE
  ssize_t ignored = ::write(STDERR_FILENO, line, static_cast<std::size_t>(length));
  (void)ignored;
}

SignalSafeLine& SignalSafeLine::operator<<(const char* text) noexcept {
  while (text && *text && length_ < sizeof buffer_ - 1) buffer_[length_++] = *text++;
  return *this;
}

SignalSafeLine& SignalSafeLine::operator<<(long long number) noexcept {
  char digits[24];
  int n = 0;
  unsigned long long magnitude =
      number < 0 ? 0ULL - static_cast<unsigned long long>(number) : static_cast<unsigned long long>(number);
  do {
    digits[n++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude && n < 23);
  if (number < 0 && length_ < sizeof buffer_ - 1) buffer_[length_++] = '-';
  while (n > 0 && length_ < sizeof buffer_ - 1) buffer_[length_++] = digits[--n];
  return *this;
}

void SignalSafeLine::emit() noexcept {
  buffer_[length_++] = '\n';
  const FileSizeSignalHeld no_signal;
  ssize_t ignored = ::write(STDERR_FILENO, buffer_, length_);
  (void)ignored;
}

}  // namespace parperf::runtime
