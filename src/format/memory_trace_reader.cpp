// Memory trace decoding. The file is read front to back exactly once (it may be a pipe): a section
// header, its payload in bounded pieces, its checksum, and so on up to the end marker. Counts and
// lengths are checked against the bytes that remain when the stream can tell (a file), and buffers
// grow only as bytes actually arrive otherwise, so a damaged length cannot exhaust memory.
#include "format/memory_trace_reader.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <unordered_set>
#include <vector>

#include "format/byte_reader.hpp"
#include "format/crc32c.hpp"
#include "format/records.hpp"
#include "format/regular_file.hpp"

namespace parperf::format {
namespace {

// Access sections are copied straight into MemoryAccessRecords: the struct must have the file's layout.
// (The field list in memory_trace.hpp gives 8 + 8 + 4 + 2 + 1 + 1 bytes, no padding.)
constexpr std::size_t kAccessSize = 24;
static_assert(sizeof(MemoryAccessRecord) == kAccessSize);
static_assert(offsetof(MemoryAccessRecord, pc) == 8 && offsetof(MemoryAccessRecord, module) == 16 &&
              offsetof(MemoryAccessRecord, thread) == 20 && offsetof(MemoryAccessRecord, size) == 22 &&
              offsetof(MemoryAccessRecord, flags) == 23);

constexpr std::size_t kHeaderSize = 16;
constexpr std::size_t kByteOrderOffset = 12;
// Metadata sections (process, modules, unknown kinds) are read whole, in pieces of this size.
constexpr std::size_t kReadPiece = std::size_t{1} << 20;

std::string section_name(std::uint32_t type) {
  switch (static_cast<MemoryTraceSection>(type)) {
    case MemoryTraceSection::process:
      return "process";
    case MemoryTraceSection::modules:
      return "modules";
    case MemoryTraceSection::accesses:
      return "accesses";
    case MemoryTraceSection::sampling:
      return "sampling";
    case MemoryTraceSection::bursts:
      return "bursts";
  }
  return "unknown type " + std::to_string(type);
}

bool valid_size(std::uint8_t size) { return size == 1 || size == 2 || size == 4 || size == 8 || size == 16; }

class TraceDecoder {
 public:
  TraceDecoder(std::istream& in, std::string_view name, MemoryTraceVisitor& visitor)
      : in_(in), name_(name), visitor_(visitor) {
    measure_stream();
  }

  void run() {
    read_header();
    std::uint32_t sections = 0;
    for (;;) {
      if (at_end())
        fail("truncated: the file ends after section " + std::to_string(sections) +
             " without its end marker (the writer was interrupted)");
      const auto type = get<std::uint32_t>("section " + std::to_string(sections + 1) + " header");
      if (type == kEndMarker) {
        const auto announced = get<std::uint32_t>("section count after the end marker");
        if (announced != sections)
          fail("corrupt: the end marker announces " + std::to_string(announced) + " sections, " +
               std::to_string(sections) + " were read");
        if (!at_end()) fail("corrupt: unexpected bytes after the end marker");
        break;
      }
      read_section(type, ++sections);
    }
    if (process_sections_ != 1)
      fail("corrupt: " + std::to_string(process_sections_) + " process sections (expected 1)");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw FormatError(name_ + ": " + what); }

  // The remaining byte count, when the stream can seek: it turns a damaged length into a clear
  // "declares N bytes, M remain" instead of a read that runs dry.
  void measure_stream() {
    const auto start = in_.tellg();
    if (start == std::streampos(-1)) {
      in_.clear();
      return;
    }
    in_.seekg(0, std::ios::end);
    const auto end = in_.tellg();
    in_.seekg(start);
    if (!in_ || end == std::streampos(-1) || end < start) {
      in_.clear();
      in_.seekg(start);
      return;
    }
    remaining_ = static_cast<std::uint64_t>(end - start);
  }

  std::string remaining_text() const {
    return remaining_ ? std::to_string(*remaining_) : std::string("fewer");
  }

  bool at_end() {
    if (remaining_) return *remaining_ == 0;
    return in_.peek() == std::char_traits<char>::eof();
  }

  void read_exact(void* data, std::size_t size, const std::string& what) {
    if (remaining_ && *remaining_ < size)
      fail("truncated: " + what + " needs " + std::to_string(size) + " bytes, " + remaining_text() +
           " remain");
    in_.read(static_cast<char*>(data), static_cast<std::streamsize>(size));
    const auto got = static_cast<std::size_t>(in_.gcount());
    if (got != size) {
      if (in_.bad()) fail(std::string("read error: ") + std::strerror(errno));
      fail("truncated: " + what + " needs " + std::to_string(size) + " bytes, " + std::to_string(got) +
           " remain");
    }
    if (remaining_) *remaining_ -= size;
  }

  template <class T>
  T get(const std::string& what) {
    T value;
    read_exact(&value, sizeof value, what);
    return swap_ ? byte_swapped(value) : value;
  }

  void read_header() {
    std::array<std::uint8_t, kHeaderSize> header{};
    in_.read(reinterpret_cast<char*>(header.data()), header.size());
    const auto got = static_cast<std::size_t>(in_.gcount());
    if (got == 0) fail("empty file (the program may have been killed before it wrote its trace)");
    const std::size_t magic_bytes = std::min(got, kMemoryTraceMagic.size());
    if (std::memcmp(header.data(), kMemoryTraceMagic.data(), magic_bytes) != 0) {
      if (got >= kMagic.size() && std::memcmp(header.data(), kMagic.data(), kMagic.size()) == 0)
        fail("a parperf profile, not a memory trace (use `parperf report` on its run directory)");
      fail("not a parperf memory trace (unrecognised magic bytes)");
    }
    if (got < kHeaderSize) fail("truncated: the file header is incomplete");
    if (remaining_) *remaining_ -= kHeaderSize;

    // The byte order field decides how everything after it, the header's own version fields
    // included, is read.
    const std::uint8_t order = header[kByteOrderOffset];
    if (order != kLittleEndian && order != kBigEndian)
      fail("corrupt header: byte order marker " + std::to_string(order));
    swap_ = order != (std::endian::native == std::endian::little ? kLittleEndian : kBigEndian);
    std::uint16_t major = 0;
    std::uint16_t minor = 0;
    std::memcpy(&major, header.data() + 8, sizeof major);
    std::memcpy(&minor, header.data() + 10, sizeof minor);
    if (swap_) major = byte_swapped(major), minor = byte_swapped(minor);
    if (major != kMemoryTraceVersionMajor)
      fail("memory trace version " + std::to_string(major) + "." + std::to_string(minor) +
           " is not supported (this parperf reads version " + std::to_string(kMemoryTraceVersionMajor) +
           ".x)");
    const std::uint8_t integer_size = header[13];
    const std::uint8_t time_size = header[14];
    if (integer_size != kIntegerSize || time_size != kTimeSize)
      fail("unsupported type sizes: integers of " + std::to_string(integer_size) + " bytes, times of " +
           std::to_string(time_size) + " bytes (this version uses 8 and 8)");
  }

  void read_section(std::uint32_t type, std::uint32_t number) {
    const std::string context = "section " + std::to_string(number) + " (" + section_name(type) + ")";
    const auto length = get<std::uint64_t>(context + " header");
    if (remaining_ && length > *remaining_)
      fail("truncated: " + context + " declares " + std::to_string(length) + " bytes, " + remaining_text() +
           " remain");
    std::uint32_t type_bytes = swap_ ? byte_swapped(type) : type;  // the CRC covers the type as stored
    std::uint32_t crc = crc32c_update(0, &type_bytes, sizeof type_bytes);

    if (type == static_cast<std::uint32_t>(MemoryTraceSection::accesses)) {
      stream_accesses(length, crc, context);
      return;
    }
    if (length > kMaxMemoryMetadataBytes)
      fail("corrupt: " + context + " declares " + std::to_string(length) +
           " bytes, more than any memory trace metadata section may hold (" +
           std::to_string(kMaxMemoryMetadataBytes) + ")");
    std::vector<std::uint8_t> payload;
    for (std::uint64_t left = length; left > 0;) {
      const auto piece = static_cast<std::size_t>(std::min<std::uint64_t>(left, kReadPiece));
      const std::size_t at = payload.size();
      payload.resize(at + piece);
      read_exact(payload.data() + at, piece, context + " payload");
      left -= piece;
    }
    crc = crc32c_update(crc, payload.data(), payload.size());
    check_crc(crc, context);
    try {
      ByteReader body(payload, swap_, "");
      switch (static_cast<MemoryTraceSection>(type)) {
        case MemoryTraceSection::process:
          decode_process(body);
          break;
        case MemoryTraceSection::modules:
          decode_modules(body);
          break;
        case MemoryTraceSection::sampling:
          decode_sampling(body);
          break;
        case MemoryTraceSection::bursts:
          decode_bursts(body);
          break;
        default:
          return;  // a later minor version's section: checked, then skipped
      }
      if (body.remaining() != 0)
        throw FormatError("corrupt: " + std::to_string(body.remaining()) + " unparsed bytes");
    } catch (const FormatError& e) {
      fail(context + ": " + e.what());
    }
  }

  void check_crc(std::uint32_t computed, const std::string& context) {
    const auto stored = get<std::uint32_t>(context + " checksum");
    if (stored != computed) fail("corrupt: checksum mismatch in " + context);
  }

  void decode_process(ByteReader& body) {
    if (++process_sections_ > 1) throw FormatError("corrupt: a second process section");
    const auto r = body.record<MemoryTraceProcessRecord>("process record");
    visitor_.process(
        MemoryTraceProcess{r.rank, r.pid, r.dropped, std::string(r.command_line), std::string(r.source)});
  }

  void decode_sampling(ByteReader& body) {
    if (++sampling_sections_ > 1) throw FormatError("corrupt: a second sampling section");
    if (accesses_seen_) throw FormatError("corrupt: the sampling section follows accesses");
    const auto r = body.record<MemorySamplingRecord>("sampling record");
    if (r.modulus == 0 || r.threshold == 0 || r.threshold > r.modulus)
      throw FormatError("corrupt: sampling threshold " + std::to_string(r.threshold) + " of modulus " +
                        std::to_string(r.modulus) + " is not a rate in (0, 1]");
    if (r.block_bytes == 0 || (r.block_bytes & (r.block_bytes - 1)) != 0)
      throw FormatError("corrupt: sampling block of " + std::to_string(r.block_bytes) +
                        " bytes is not a power of two");
    visitor_.sampling(MemoryTraceSampling{static_cast<double>(r.threshold) / static_cast<double>(r.modulus),
                                          r.block_bytes});
  }

  void decode_bursts(ByteReader& body) {
    if (++burst_sections_ > 1) throw FormatError("corrupt: a second bursts section");
    if (accesses_seen_) throw FormatError("corrupt: the bursts section follows accesses");
    const auto r = body.record<MemoryBurstRecord>("bursts record");
    if (r.burst_length == 0 || r.mean_gap == 0)
      throw FormatError("corrupt: bursts of " + std::to_string(r.burst_length) + " accesses every " +
                        std::to_string(r.mean_gap) + " (both must be at least 1)");
    visitor_.bursts(MemoryTraceBursts{r.burst_length, r.mean_gap});
  }

  void decode_modules(ByteReader& body) {
    std::vector<MemoryModule> modules;
    while (body.remaining() > 0) {
      const auto r = body.record<MemoryModuleRecord>("module record");
      if (r.id == kNoModule) throw FormatError("corrupt: module id 0xffffffff is reserved for 'no module'");
      if (!defined_modules_.insert(r.id).second)
        throw FormatError("corrupt: module " + std::to_string(r.id) + " defined twice");
      modules.push_back(MemoryModule{r.id, std::string(r.path)});
    }
    visitor_.modules(modules);
  }

  // Accesses arrive in batches of at most kMaxAccessBatch; see that constant for when the checksum
  // is verified.
  void stream_accesses(std::uint64_t length, std::uint32_t crc, const std::string& context) {
    if (length % kAccessSize != 0)
      fail("corrupt: " + context + " holds " + std::to_string(length) + " bytes, not a whole number of " +
           std::to_string(kAccessSize) + "-byte access records");
    std::uint64_t left = length / kAccessSize;
    std::uint64_t index = 0;
    if (left == 0) check_crc(crc, context);
    while (left > 0) {
      const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(left, kMaxAccessBatch));
      batch_.resize(count);
      read_exact(batch_.data(), count * kAccessSize, context + " access records");
      crc = crc32c_update(crc, batch_.data(), count * kAccessSize);
      left -= count;
      if (left == 0) check_crc(crc, context);
      for (auto& r : batch_) {
        if (swap_) swap_fields(r);
        check_access(r, index++, context);
      }
      accesses_seen_ = true;
      visitor_.accesses(batch_);
    }
  }

  static void swap_fields(MemoryAccessRecord& r) {
    r.address = byte_swapped(r.address);
    r.pc = byte_swapped(r.pc);
    r.module = byte_swapped(r.module);
    r.thread = byte_swapped(r.thread);
  }

  void check_access(const MemoryAccessRecord& r, std::uint64_t index, const std::string& context) {
    const auto where = [&] { return "corrupt: " + context + " access " + std::to_string(index); };
    if (!valid_size(r.size))
      fail(where() + " has size " + std::to_string(r.size) + " (not 1, 2, 4, 8 or 16)");
    if ((r.flags & ~kAccessStore) != 0) fail(where() + " has unknown flags " + std::to_string(r.flags));
    // Most accesses of a stretch share a module: remember the last one found.
    if (r.module == kNoModule || r.module == last_module_) return;
    if (!defined_modules_.count(r.module))
      fail(where() + " refers to module " + std::to_string(r.module) + ", which no earlier section defines");
    last_module_ = r.module;
  }

  std::istream& in_;
  int sampling_sections_ = 0;
  int burst_sections_ = 0;
  bool accesses_seen_ = false;
  std::string name_;
  MemoryTraceVisitor& visitor_;
  std::optional<std::uint64_t> remaining_;
  bool swap_ = false;
  int process_sections_ = 0;
  std::unordered_set<std::uint32_t> defined_modules_;
  std::uint32_t last_module_ = kNoModule;
  std::vector<MemoryAccessRecord> batch_;
};

}  // namespace

void read_memory_trace(std::istream& in, std::string_view name, MemoryTraceVisitor& visitor) {
  TraceDecoder(in, name, visitor).run();
}

void read_memory_trace(const std::filesystem::path& path, MemoryTraceVisitor& visitor) {
  RegularFileStream file(path);  // not a FIFO or a device: a trace on disk ends
  try {
    read_memory_trace(file.stream(), path.string(), visitor);
  } catch (const std::ios_base::failure& e) {
    // libstdc++'s filebuf throws from underflow() when read(2) fails (EIO).
    throw FormatError(path.string() + ": read error: " + e.code().message());
  }
}

}  // namespace parperf::format
