#include "cli/shared_trace_loading.hpp"

#include <mpi.h>

#include <fmt/format.h>

#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/operations_trace.hpp"
#include "analysis/trace/part_reductions.hpp"
#include "cli/mpi_sleeping_wait.hpp"
#include "format/profile_files.hpp"

namespace parperf::cli {
namespace {

// What a process sends for each trace file of its share (PartBytes): the file's index among the
// run's traces, then either its warnings and operations, or the error that stopped its reading.
constexpr std::uint64_t kRead = 0;
constexpr std::uint64_t kFailed = 1;

// This process's share, packed.
std::vector<std::uint8_t> read_share(const analysis::RunData& run, const std::vector<std::string>& names,
                                     int me, int processes) {
  analysis::PartBytes packet;
  for (std::size_t i = static_cast<std::size_t>(me); i < names.size();
       i += static_cast<std::size_t>(processes)) {
    packet.put(static_cast<std::uint64_t>(i));
    try {
      std::vector<std::string> warnings;
      const analysis::RankTrace rank = analysis::read_rank_trace(run, names[i], warnings);
      std::vector<std::uint8_t> operations = analysis::operations_trace(*rank.trace);
      packet.put(kRead);
      packet.put(static_cast<std::uint64_t>(warnings.size()));
      for (const std::string& w : warnings) packet.put_text(w);
      packet.put_all(operations);
    } catch (const std::exception& e) {  // LoadError, a block that does not decode
      packet.put(kFailed);
      packet.put_text(e.what());
    }
  }
  return packet.release();
}

// Every process's packet, on process 0.
std::vector<std::uint8_t> gather(std::vector<std::uint8_t> mine, int me, int processes,
                                 std::vector<int>& sizes) {
  if (mine.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error(
        "parallel trace analysis: a process's share of the operations exceeds 2 GB; use more processes");
  int size = static_cast<int>(mine.size());
  sizes.assign(static_cast<std::size_t>(processes), 0);
  // Waited for asleep: a process that has read its share leaves the cores to those still reading.
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Igather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  wait_sleeping(request);
  std::vector<int> offsets(static_cast<std::size_t>(processes), 0);
  std::size_t total = 0;
  if (me == 0)
    for (int p = 0; p < processes; ++p) {
      offsets[static_cast<std::size_t>(p)] = static_cast<int>(total);
      total += static_cast<std::size_t>(sizes[static_cast<std::size_t>(p)]);
    }
  if (total > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("parallel trace analysis: the operations of all traces exceed 2 GB");
  std::vector<std::uint8_t> all(total);
  MPI_Igatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
               MPI_COMM_WORLD, &request);
  wait_sleeping(request);
  return all;
}

}  // namespace

std::optional<analysis::TraceRun> load_traces_shared(const analysis::RunData& run) {
  int me = 0, processes = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const std::vector<std::string> names = format::find_traces(run.directory);  // the same list everywhere
  if (names.empty()) return std::nullopt;
  std::vector<int> sizes;
  const std::vector<std::uint8_t> all = gather(read_share(run, names, me, processes), me, processes, sizes);
  if (me != 0) return std::nullopt;

  // By file, in the order load_traces reads them, so that warnings and errors come alike.
  std::map<std::uint64_t, std::pair<std::vector<std::string>, std::vector<std::uint8_t>>> read;
  std::map<std::uint64_t, std::string> failed;
  try {
    for (analysis::PartBytesReader in(all); !in.done();) {
      const auto index = in.take<std::uint64_t>();
      if (index >= names.size()) throw std::logic_error("a file of no trace");
      if (in.take<std::uint64_t>() == kFailed) {
        failed[index] = in.take_text();
        continue;
      }
      std::vector<std::string> warnings;
      for (auto n = in.take<std::uint64_t>(); n > 0; --n) warnings.push_back(in.take_text());
      read[index] = {std::move(warnings), in.take_all<std::uint8_t>()};
    }
  } catch (const std::logic_error&) {  // a length past the bytes, an index past the files
    throw std::runtime_error("parallel trace analysis: a process sent a damaged packet");
  }
  if (!failed.empty()) throw analysis::LoadError(failed.begin()->second);
  std::vector<analysis::RankTrace> ranks;
  std::vector<std::string> warnings;
  for (auto& [index, contents] : read) {
    analysis::RankTrace rank;
    rank.file = names[index];
    // Indexed as a file is, its blocks decoded one at a time as the analyses reach them (decoded
    // whole, every event would be held at once: 633 instead of 411 MB for an 8-rank report). Its
    // messages name the file, as the operations another process read from it.
    const std::filesystem::path source = run.directory / names[index];
    rank.trace = std::make_shared<const format::TraceFile>(
        format::open_trace_index(source.string() + " (its operations, as read by analysis process " +
                                     std::to_string(index % static_cast<std::size_t>(processes)) + ")",
                                 std::move(contents.second)));
    rank.rank = rank.trace->process.rank;
    for (std::string& w : contents.first) warnings.push_back(std::move(w));
    ranks.push_back(std::move(rank));
  }
  if (ranks.size() != names.size())
    throw std::runtime_error(
        fmt::format("parallel trace analysis: {} of {} traces arrived", ranks.size(), names.size()));
  return analysis::assemble_traces(run, std::move(ranks), std::move(warnings));
}

}  // namespace parperf::cli
