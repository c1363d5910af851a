#include "format/memory_trace_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "format/new_file.hpp"
#include "format/record_writer.hpp"

namespace parperf::format {

// RecordWriter's Sink over a std::ofstream (which does the buffering). patch() seeks back to a
// section's length field once per section.
class MemoryTraceWriter::Sink {
 public:
  // The file is created afresh first (new_file.hpp): a link planted at `path` is removed, never
  // written through; the stream then opens the regular file just made.
  explicit Sink(const std::filesystem::path& path)
      : file_((::close(create_new_file(path)), path), std::ios::binary | std::ios::trunc) {}

  void write(const void* data, std::size_t size) {
    file_.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    position_ += size;
  }
  std::uint64_t position() const { return position_; }
  void patch(std::uint64_t position, const void* data, std::size_t size) {
    file_.seekp(static_cast<std::streamoff>(position));
    file_.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    file_.seekp(static_cast<std::streamoff>(position_));
  }
  bool failed() const { return !file_; }
  void close() { file_.close(); }

  RecordWriter<Sink>& writer() { return writer_; }

 private:
  std::ofstream file_;
  std::uint64_t position_ = 0;
  RecordWriter<Sink> writer_{*this};
};

MemoryTraceWriter::MemoryTraceWriter(const std::filesystem::path& path, std::size_t accesses_per_section)
    : path_(path),
      sink_(std::make_unique<Sink>(path)),
      accesses_per_section_(std::max<std::size_t>(1, accesses_per_section)) {
  if (sink_->failed())
    throw std::runtime_error(path.string() + ": cannot create the memory trace: " + std::strerror(errno));
  sink_->writer().file_header(memory_trace_header());
  pending_.reserve(std::min(accesses_per_section_, kDefaultAccessesPerSection));
}

MemoryTraceWriter::~MemoryTraceWriter() = default;

void MemoryTraceWriter::define_module(std::uint32_t id, std::string path) {
  if (modules_written_) throw std::logic_error("memory trace: module defined after the first access");
  if (id == kNoModule) throw std::logic_error("memory trace: module id 0xffffffff means 'no module'");
  if (std::any_of(modules_.begin(), modules_.end(), [&](const MemoryModule& m) { return m.id == id; }))
    throw std::logic_error("memory trace: module " + std::to_string(id) + " defined twice");
  modules_.push_back(MemoryModule{id, std::move(path)});
}

void MemoryTraceWriter::add(const MemoryAccessRecord& access) {
  if (access.size != 1 && access.size != 2 && access.size != 4 && access.size != 8 && access.size != 16)
    throw std::invalid_argument("memory trace: access size " + std::to_string(access.size) +
                                " is not 1, 2, 4, 8 or 16");
  if ((access.flags & ~kAccessStore) != 0)
    throw std::invalid_argument("memory trace: unknown access flags " + std::to_string(access.flags));
  if (access.module != kNoModule &&
      std::none_of(modules_.begin(), modules_.end(),
                   [&](const MemoryModule& m) { return m.id == access.module; }))
    throw std::invalid_argument("memory trace: access refers to undefined module " +
                                std::to_string(access.module));
  if (!modules_written_) write_modules();
  pending_.push_back(access);
  if (pending_.size() == accesses_per_section_) flush_accesses();
}

void MemoryTraceWriter::write_modules() {
  auto& w = sink_->writer();
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::modules));
  for (const auto& m : modules_) w.record(MemoryModuleRecord{m.id, 0, m.path});
  w.end_section();
  modules_written_ = true;
}

void MemoryTraceWriter::flush_accesses() {
  if (pending_.empty()) return;
  auto& w = sink_->writer();
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::accesses));
  for (const auto& r : pending_) w.record(r);
  w.end_section();
  accesses_ += pending_.size();
  pending_.clear();
}

void MemoryTraceWriter::finish() {
  if (finished_) return;
  finished_ = true;
  if (!modules_written_) write_modules();
  flush_accesses();
  auto& w = sink_->writer();
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::process));
  w.record(MemoryTraceProcessRecord{process_.rank, process_.pid, process_.dropped, process_.command_line,
                                    process_.source});
  w.end_section();
  w.finish();
  const bool failed = sink_->failed();
  sink_->close();
  if (failed || sink_->failed())
    throw std::runtime_error(path_.string() + ": write error: " + std::strerror(errno));
}

}  // namespace parperf::format
