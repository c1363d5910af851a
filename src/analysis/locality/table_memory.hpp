// The zero-filled memory of a WordTable's slots. A large table (2 MiB and more) is mapped anew and
// asks the kernel for transparent huge pages (madvise MADV_HUGEPAGE: Debian's default THP setting,
// `madvise`, gives them only to memory that asks). The engine's tables are tens of MiB probed at
// random block by block, so with 4 KiB pages nearly every lookup of a sampled run's burst also
// missed the TLB (a page walk per 8 words), and growing a table took one page fault per 4 KiB.
// Fresh mappings are zero, so a new table is not cleared a second time. Small tables come from
// calloc. Internal to the locality engine.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace parperf::locality {

template <typename T>
class TableMemory {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "a table slot must be valid as all zero bytes, as fresh memory is");

 public:
  TableMemory() = default;
  // `count` slots, every byte 0. Throws std::bad_alloc.
  explicit TableMemory(std::size_t count) : count_(count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes < kHugePage) {
      data_ = static_cast<T*>(std::calloc(count == 0 ? 1 : count, sizeof(T)));
      if (data_ == nullptr) throw std::bad_alloc();
      return;
    }
    // Mapped with a huge page of slack, so that the slots begin on a huge-page boundary: the kernel
    // backs only aligned 2 MiB ranges with huge pages.
    mapped_bytes_ = bytes + kHugePage;
    void* mapped = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    mapped_ = mapped;
    const auto address = reinterpret_cast<std::uintptr_t>(mapped);
    const std::uintptr_t aligned = (address + kHugePage - 1) & ~(std::uintptr_t{kHugePage} - 1);
    data_ = reinterpret_cast<T*>(aligned);
    madvise(data_, bytes, MADV_HUGEPAGE);  // a hint: may be refused
  }
  ~TableMemory() { release(); }
  TableMemory(TableMemory&& other) noexcept { *this = std::move(other); }
  TableMemory& operator=(TableMemory&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
      mapped_ = std::exchange(other.mapped_, nullptr);
      mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
    }
    return *this;
  }
  TableMemory(const TableMemory&) = delete;
  TableMemory& operator=(const TableMemory&) = delete;

  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return count_; }
  std::span<T> slots() { return {data_, count_}; }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  void release() {
    if (mapped_ != nullptr) {
      munmap(mapped_, mapped_bytes_);
    } else {
      std::free(data_);
    }
    data_ = nullptr;
    mapped_ = nullptr;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
  void* mapped_ = nullptr;  // the mapping of a large table (data_ lies inside it), else null
  std::size_t mapped_bytes_ = 0;
};

}  // namespace parperf::locality
