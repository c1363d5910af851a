// An OpenSHMEM active set (PE_start, logPE_stride, PE_size: the PEs start + i * 2^logPE_stride, i <
// size) as a trace operation's `match` (docs/format.md): every PE of the set calls its collectives
// over the set in the same order, so the n-th operation of each member with the same match is one
// instance. Bit 62 marks an active set (0 is "none"); start and size take 24 bits each, the stride's
// logarithm 8. A set these do not hold is recorded as none (its collectives stay unlinked).
#pragma once

#include <cstdint>

namespace parperf::format {

struct ShmemActiveSet {
  std::int64_t start = 0;
  std::int32_t log_stride = 0;
  std::int64_t size = 0;

  std::int64_t member(std::int64_t i) const { return start + (i << log_stride); }
  bool contains(std::int64_t pe) const {
    const std::int64_t offset = pe - start;
    return offset >= 0 && (offset & ((std::int64_t{1} << log_stride) - 1)) == 0 &&
           (offset >> log_stride) < size;
  }
};

inline constexpr std::int64_t kShmemActiveSetMark = std::int64_t{1} << 62;
inline constexpr std::int64_t kShmemActiveSetField = (std::int64_t{1} << 24) - 1;

constexpr std::int64_t shmem_active_set_match(std::int64_t start, std::int64_t log_stride,
                                              std::int64_t size) noexcept {
  if (start < 0 || start > kShmemActiveSetField || size < 1 || size > kShmemActiveSetField ||
      log_stride < 0 || log_stride > 30)
    return 0;
  return kShmemActiveSetMark | start | (log_stride << 24) | (size << 32);
}

// The active set a match names; false when it names none.
constexpr bool shmem_active_set_of(std::int64_t match, ShmemActiveSet& set) noexcept {
  if (match <= 0 || (match & kShmemActiveSetMark) == 0) return false;
  set.start = match & kShmemActiveSetField;
  set.log_stride = static_cast<std::int32_t>((match >> 24) & 0xFF);
  set.size = (match >> 32) & kShmemActiveSetField;
  // A stride no collector writes (a damaged trace's) names no set: 2^stride would not fit.
  return set.log_stride <= 30;
}

}  // namespace parperf::format
