// The Perfetto export (export/perfetto_writer.hpp), decoded field by field with a reader of the
// protobuf wire format written apart from the encoder, and checked as ui.perfetto.dev would need:
// every track described before use, slices nested per track, times in order, interned names
// resolved, the clock correction applied, flows ending after they start. protoc --decode_raw must
// read the file too.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/trace/trace_samples.hpp"
#include "export/perfetto_writer.hpp"
#include "export/protobuf_wire.hpp"
#include "unit/export_test_support.hpp"
#include "unit/protobuf_test_reader.hpp"

namespace parperf::test {
namespace {

struct Track {
  std::uint64_t parent = 0;
  std::string kind;  // process, thread, counter, lane
  std::string name;  // process_name, thread_name or the track's name
  std::int64_t pid = 0;
  std::int64_t tid = 0;  // threads
};

// A PerfSample with its interned callstack resolved.
struct Sample {
  std::uint64_t ts = 0;
  std::int64_t pid = 0, tid = 0;
  std::vector<std::string> functions;  // outermost first
  std::vector<std::string> modules;    // each frame's mapping's path
  std::vector<std::uint64_t> addresses;
};

struct Slice {
  std::uint64_t track = 0;
  std::string name, category;
  std::uint64_t begin = 0, end = 0;
  bool ended = false;
  std::map<std::string, std::string> args;  // every value as text
  std::string source;                       // "file:line" of its interned source location
};

// The decoded trace, and every problem a viewer would have with it.
struct DecodedTrace {
  std::map<std::uint64_t, Track> tracks;
  std::vector<Slice> slices;  // slice_begin ... slice_end
  std::vector<Slice> instants;
  std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, std::int64_t>>>
      counters;  // track -> (ts, value)
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> flow_starts,
      flow_ends;  // id -> (track, ts)
  std::vector<Sample> samples;
  std::vector<std::string> problems;
};

// Perfetto's profiling tables of one sequence (InternedData fields 5, 6, 7, 17, 19).
struct StackTables {
  std::map<std::uint64_t, std::string> function_names, mapping_paths;
  std::map<std::uint64_t, std::uint64_t> mapping_path;  // mapping iid -> path iid
  struct Frame {
    std::uint64_t function = 0, mapping = 0, rel_pc = 0;
  };
  std::map<std::uint64_t, Frame> frames;
  std::map<std::uint64_t, std::vector<std::uint64_t>> callstacks;

  // Takes an interned entry of a profiling table; false for any other field.
  bool add(const ProtoField& entry, std::vector<std::string>& problems) {
    const auto fields = read_proto(entry.bytes);
    const ProtoField* iid = find_field(fields, 1);
    if (entry.number != 5 && entry.number != 6 && entry.number != 7 && entry.number != 17 &&
        entry.number != 19)
      return false;
    if (!iid || iid->value == 0) {
      problems.push_back("an interned profiling entry without an iid (field " + std::to_string(entry.number) +
                         ")");
      return true;
    }
    auto once = [&](auto& table) {
      if (table.count(iid->value))
        problems.push_back("iid " + std::to_string(iid->value) + " interned twice");
    };
    if (entry.number == 5 || entry.number == 17) {  // InternedString: str 2
      auto& table = entry.number == 5 ? function_names : mapping_paths;
      once(table);
      table[iid->value] = std::string(find_field(fields, 2)->bytes);
    } else if (entry.number == 19) {  // Mapping: path_string_ids 7
      once(mapping_path);
      const ProtoField* path = find_field(fields, 7);
      if (!path) problems.push_back("a mapping without a path");
      mapping_path[iid->value] = path ? path->value : 0;
    } else if (entry.number == 6) {  // Frame: function_name_id 2, mapping_id 3, rel_pc 4
      once(frames);
      Frame f;
      for (const ProtoField& field : fields) {
        if (field.number == 2) f.function = field.value;
        if (field.number == 3) f.mapping = field.value;
        if (field.number == 4) f.rel_pc = field.value;
      }
      frames[iid->value] = f;
    } else {  // Callstack: frame_ids 2, repeated
      once(callstacks);
      auto& ids = callstacks[iid->value];
      for (const ProtoField& field : fields)
        if (field.number == 2) ids.push_back(field.value);
    }
    return true;
  }

  // A sample's stack, as Perfetto's trace processor would resolve it (every id must be known).
  void resolve(std::uint64_t callstack, Sample& s, std::vector<std::string>& problems) const {
    const auto stack = callstacks.find(callstack);
    if (stack == callstacks.end()) {
      problems.push_back("callstack iid " + std::to_string(callstack) + " not interned");
      return;
    }
    for (const std::uint64_t id : stack->second) {
      const auto frame = frames.find(id);
      if (frame == frames.end() || !function_names.count(frame->second.function) ||
          !mapping_path.count(frame->second.mapping) ||
          !mapping_paths.count(mapping_path.at(frame->second.mapping))) {
        problems.push_back("frame iid " + std::to_string(id) + " or its name or mapping is not interned");
        return;
      }
      s.functions.push_back(function_names.at(frame->second.function));
      s.modules.push_back(mapping_paths.at(mapping_path.at(frame->second.mapping)));
      s.addresses.push_back(frame->second.rel_pc);
    }
  }
};

std::string text_of(std::string_view bytes) { return std::string(bytes); }

DecodedTrace decode(const std::string& file) {
  DecodedTrace t;
  std::map<std::uint64_t, std::string> names, categories, annotation_names, sources;
  StackTables stacks;
  std::map<std::uint64_t, std::vector<std::size_t>> open;  // track -> open slices
  std::uint64_t last_ts = 0;
  auto problem = [&](const std::string& p) { t.problems.push_back(p); };
  const auto packets = read_proto(file);
  for (std::size_t i = 0; i < packets.size(); ++i) {
    if (packets[i].number != 1)
      problem("a Trace field other than packet: " + std::to_string(packets[i].number));
    const auto packet = read_proto(packets[i].bytes);
    const ProtoField* sequence = find_field(packet, 10);
    if (!sequence || sequence->value != 1) problem("packet " + std::to_string(i) + " is not on sequence 1");
    const ProtoField* flags = find_field(packet, 13);
    if (i == 0 && (!flags || flags->value != 1))
      problem("the first packet does not clear the incremental state");
    if (const ProtoField* interned = find_field(packet, 12)) {
      for (const ProtoField& entry : read_proto(interned->bytes)) {
        if (stacks.add(entry, t.problems)) continue;
        const auto fields = read_proto(entry.bytes);
        const std::uint64_t iid = find_field(fields, 1)->value;
        if (entry.number == 4) {  // SourceLocation: file_name 2, line_number 4
          sources[iid] =
              text_of(find_field(fields, 2)->bytes) + ":" + std::to_string(find_field(fields, 4)->value);
          continue;
        }
        const std::string name = text_of(find_field(fields, 2)->bytes);
        auto& index = entry.number == 1 ? categories : entry.number == 2 ? names : annotation_names;
        if (index.count(iid) && index[iid] != name) problem("iid " + std::to_string(iid) + " interned twice");
        index[iid] = name;
      }
    }
    if (const ProtoField* descriptor = find_field(packet, 60)) {
      const auto fields = read_proto(descriptor->bytes);
      Track track;
      const std::uint64_t uuid = find_field(fields, 1)->value;
      if (const ProtoField* parent = find_field(fields, 5)) track.parent = parent->value;
      if (const ProtoField* name = find_field(fields, 2)) track.name = text_of(name->bytes);
      if (const ProtoField* process = find_field(fields, 3)) {
        const auto p = read_proto(process->bytes);
        track.kind = "process";
        track.pid = static_cast<std::int64_t>(find_field(p, 1)->value);
        track.name = text_of(find_field(p, 6)->bytes);
      } else if (const ProtoField* thread = find_field(fields, 4)) {
        const auto p = read_proto(thread->bytes);
        track.kind = "thread";
        track.pid = static_cast<std::int64_t>(find_field(p, 1)->value);
        track.tid = static_cast<std::int64_t>(find_field(p, 2)->value);
        track.name = text_of(find_field(p, 5)->bytes);
      } else {
        track.kind = find_field(fields, 8) ? "counter" : "lane";
      }
      if (track.parent && !t.tracks.count(track.parent))
        problem("track " + track.name + " has an undescribed parent");
      t.tracks[uuid] = track;
    }
    if (const ProtoField* perf_sample = find_field(packet, 66)) {  // PerfSample
      const auto fields = read_proto(perf_sample->bytes);
      Sample s;
      const ProtoField* ts = find_field(packet, 8);
      const ProtoField* pid = find_field(fields, 2);
      const ProtoField* tid = find_field(fields, 3);
      const ProtoField* callstack = find_field(fields, 4);
      const ProtoField* mode = find_field(fields, 5);
      if (!ts || !pid || !tid || !callstack) {
        problem("a perf sample without its timestamp, pid, tid or callstack");
        continue;
      }
      if (!mode || mode->value != 2) problem("a perf sample not in user mode");
      if (!flags || flags->value != 2)
        problem("a perf sample packet does not say it needs the interned state");
      s.ts = ts->value;
      s.pid = static_cast<std::int64_t>(pid->value);
      s.tid = static_cast<std::int64_t>(tid->value);
      stacks.resolve(callstack->value, s, t.problems);
      bool described = false;
      for (const auto& [uuid, track] : t.tracks)
        described |= track.kind == "thread" && track.pid == s.pid && track.tid == s.tid;
      if (!described) problem("a perf sample of a thread no track describes (before it)");
      t.samples.push_back(s);
    }
    if (const ProtoField* event = find_field(packet, 11)) {
      const auto fields = read_proto(event->bytes);
      const ProtoField* ts = find_field(packet, 8);
      if (!ts) {
        problem("a track event without a timestamp");
        continue;
      }
      if (ts->value < last_ts) problem("timestamps go back at packet " + std::to_string(i));
      last_ts = ts->value;
      if (!flags || flags->value != 2)
        problem("a track event packet does not say it needs the interned state");
      const std::uint64_t track = find_field(fields, 11)->value;
      if (!t.tracks.count(track)) problem("an event on an undescribed track");
      const std::uint64_t type = find_field(fields, 9)->value;
      Slice s;
      s.track = track;
      s.begin = ts->value;
      if (const ProtoField* name = find_field(fields, 10)) {
        if (!names.count(name->value)) problem("name iid " + std::to_string(name->value) + " not interned");
        s.name = names[name->value];
      }
      if (const ProtoField* category = find_field(fields, 3)) s.category = categories[category->value];
      if (const ProtoField* source = find_field(fields, 34)) {
        if (!sources.count(source->value))
          problem("source location iid " + std::to_string(source->value) + " not interned");
        s.source = sources[source->value];
      }
      for (const ProtoField& f : fields) {
        if (f.number == 4) {
          const auto a = read_proto(f.bytes);
          const std::string key = annotation_names[find_field(a, 1)->value];
          if (const ProtoField* v = find_field(a, 4))
            s.args[key] = std::to_string(static_cast<std::int64_t>(v->value));
          if (const ProtoField* v = find_field(a, 6)) s.args[key] = text_of(v->bytes);
        }
        if (f.number == 47) t.flow_starts[f.value] = {track, ts->value};
        if (f.number == 48) t.flow_ends[f.value] = {track, ts->value};
      }
      if (type == 1) {
        open[track].push_back(t.slices.size());
        t.slices.push_back(s);
      } else if (type == 2) {
        if (open[track].empty()) {
          problem("a slice end with no slice open on its track");
        } else {
          Slice& begun = t.slices[open[track].back()];
          begun.end = ts->value;
          begun.ended = true;
          open[track].pop_back();
        }
      } else if (type == 3) {
        t.instants.push_back(s);
      } else if (type == 4) {
        t.counters[track].emplace_back(ts->value, static_cast<std::int64_t>(find_field(fields, 30)->value));
      }
    }
  }
  for (const auto& [track, slices] : open)
    if (!slices.empty()) problem("slices left open on track " + t.tracks[track].name);
  return t;
}

class export_perfetto : public ExportRunTest {
 protected:
  DecodedTrace exported() {
    const auto file = dir_ / "trace.perfetto";
    export_with(dir_ / "run", message_flows(), [&](const exports::TimelineNames& names) {
      return std::make_unique<exports::PerfettoWriter>(file, names);
    });
    return decode(read_file_bytes(file));
  }
  // The thread track of (rank, thread).
  std::uint64_t thread_track(const DecodedTrace& t, std::int64_t rank, std::uint32_t thread) {
    for (const auto& [uuid, track] : t.tracks)
      if (track.kind == "thread" && track.pid == rank + 1 && track.name == "thread " + std::to_string(thread))
        return uuid;
    ADD_FAILURE() << "no track for rank " << rank << " thread " << thread;
    return 0;
  }
  std::vector<const Slice*> slices_on(const DecodedTrace& t, std::uint64_t track) {
    std::vector<const Slice*> on;
    for (const Slice& s : t.slices)
      if (s.track == track) on.push_back(&s);
    return on;
  }
};

TEST_F(export_perfetto, EveryTrackIsDescribedAndSlicesNestInTimeOrder) {
  const DecodedTrace t = exported();
  for (const std::string& p : t.problems) ADD_FAILURE() << p;
  std::vector<std::string> processes, threads;
  for (const auto& [uuid, track] : t.tracks) {
    if (track.kind == "process") processes.push_back(track.name);
    if (track.kind == "thread") {
      threads.push_back(track.name);
      EXPECT_EQ(t.tracks.at(track.parent).kind, "process") << "a thread track belongs to its rank's process";
    }
  }
  EXPECT_EQ(processes, (std::vector<std::string>{"rank 0 (node, pid 1000)", "rank 1 (node, pid 1001)"}));
  EXPECT_EQ(threads.size(), 4u) << "two ranks of two threads";
  for (const Slice& s : t.slices) EXPECT_TRUE(s.ended) << s.name << " never ends";
}

TEST_F(export_perfetto, SlicesHaveTheSitesNamesArgumentsAndCorrectedTimes) {
  const DecodedTrace t = exported();
  std::vector<std::string> names;
  const auto rank1 = slices_on(t, thread_track(t, 1, 0));
  for (const Slice* s : rank1) names.push_back(s->name);
  EXPECT_EQ(names, (std::vector<std::string>{"solve", "step", "MPI_Recv", "MPI_Allreduce"}));
  ASSERT_EQ(rank1.size(), 4u);
  // Rank 1's receive ran from 13 to 15 ms of rank 0's time: 8 to 10 ms on its own clock, 5 ms behind.
  EXPECT_EQ(rank1[2]->begin, 13'000'000u) << "rank 1's clock is corrected by its 5 ms offset";
  EXPECT_EQ(rank1[2]->end, 15'000'000u);
  EXPECT_EQ(rank1[2]->category, "operation");
  EXPECT_EQ(rank1[2]->args.at("partner"), "0");
  EXPECT_EQ(rank1[2]->args.at("wait_ns"), "1000000");
  const auto rank0 = slices_on(t, thread_track(t, 0, 0));
  ASSERT_EQ(rank0.size(), 4u);
  const Slice& send = *rank0[2];
  EXPECT_EQ(send.name, "MPI_Send");
  EXPECT_EQ(send.begin, 13'000'000u);
  EXPECT_EQ(send.end, 14'000'000u);
  EXPECT_EQ(send.args, (std::map<std::string, std::string>{{"bytes", "800"},
                                                           {"partner", "1"},
                                                           {"communicator", "100"},
                                                           {"tag", "7"},
                                                           {"duration_ns", "1000000"}}));
  EXPECT_EQ(send.source, "app.c:10") << "the site's file and line, an interned source location";
  EXPECT_EQ(rank0[1]->args.at("value"), "1") << "the step interval's value";
  EXPECT_EQ(rank0[0]->source, "solver.c:42");
  EXPECT_EQ(rank1[2]->source, "app.c:20");
  EXPECT_EQ(rank0[0]->begin, 10'000'000u);
  EXPECT_EQ(rank0[0]->end, 20'000'000u);
}

TEST_F(export_perfetto, UserEventsAreSlicesOnTheirLaneAndInstantsWithTheirText) {
  const DecodedTrace t = exported();
  const std::uint64_t worker_thread = thread_track(t, 0, 1);
  const Slice* phase = nullptr;
  for (const Slice& s : t.slices)
    if (s.name == "phase" && t.tracks.at(s.track).parent == worker_thread) phase = &s;
  ASSERT_NE(phase, nullptr) << "rank 0's phase event on a lane of its thread 1";
  EXPECT_EQ(t.tracks.at(phase->track).kind, "lane");
  EXPECT_EQ(phase->begin, 12'000'000u);
  EXPECT_EQ(phase->end, 14'000'000u);
  EXPECT_EQ(phase->args.at("text"), "warm, up");
  int checkpoints = 0;
  for (const Slice& s : t.instants)
    if (s.name == "checkpoint") {
      ++checkpoints;
      EXPECT_EQ(s.args.at("text"), "step \"1\", done");
      EXPECT_EQ(s.begin, 17'000'000u);
    }
  EXPECT_EQ(checkpoints, 2) << "one per rank";
}

TEST_F(export_perfetto, TheMessageFlowGoesFromTheSendToTheReceiveForward) {
  const DecodedTrace t = exported();
  ASSERT_EQ(t.flow_starts.size(), 1u);
  ASSERT_EQ(t.flow_ends.size(), 1u);
  const auto [from_track, from_ts] = t.flow_starts.begin()->second;
  const auto [to_track, to_ts] = t.flow_ends.at(t.flow_starts.begin()->first);
  EXPECT_EQ(from_track, thread_track(t, 0, 0));
  EXPECT_EQ(to_track, thread_track(t, 1, 0));
  EXPECT_EQ(from_ts, 13'000'000u);
  EXPECT_EQ(to_ts, 15'000'000u);
  EXPECT_LE(from_ts, to_ts) << "a flow's end is not before its start";
}

TEST_F(export_perfetto, EachRanksLostTimeIsACounterOfItsWaits) {
  const DecodedTrace t = exported();
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::int64_t>>> by_rank;
  for (const auto& [track, values] : t.counters)
    by_rank[t.tracks.at(t.tracks.at(track).parent).name] = values;
  using Values = std::vector<std::pair<std::uint64_t, std::int64_t>>;
  EXPECT_EQ(by_rank["rank 0 (node, pid 1000)"], (Values{{19'000'000, 500'000}}))
      << "the allreduce's 0.5 ms wait";
  EXPECT_EQ(by_rank["rank 1 (node, pid 1001)"], (Values{{15'000'000, 1'000'000}}))
      << "the receive's 1 ms wait";
}

// Each rank's thread 0 has 5 samples (export_test_run.hpp): at true 11 and 11.5 ms in solve, and 13
// (weight 2: written twice) and 14 ms in step. Perfetto must find each on the thread's track, at the
// corrected time, with its stack: the intervals from the program down, then main, then the leaf.
TEST_F(export_perfetto, SamplesAreOnTheirThreadsWithTheirIntervalsAndCallStacks) {
  const DecodedTrace t = exported();
  EXPECT_TRUE(t.problems.empty()) << testing::PrintToString(t.problems);
  ASSERT_EQ(t.samples.size(), 2u * kSamplesPerRank)
      << "every sample of both ranks, a sample of weight 2 twice, as parperf report --functions counts them";
  for (std::int64_t rank : {0, 1}) {
    const Track& thread = t.tracks.at(thread_track(t, rank, 0));
    std::vector<const Sample*> mine;
    for (const Sample& s : t.samples)
      if (s.pid == thread.pid && s.tid == thread.tid) mine.push_back(&s);
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(kSamplesPerRank)) << "rank " << rank << " thread 0";
    const std::vector<std::uint64_t> expected_ms_ns = {11'000'000, 11'500'000, 13'000'000, 13'000'000,
                                                       14'000'000};
    const std::vector<std::string> in_solve = {"app", "solve", "0x1000", "0x2000"};
    const std::vector<std::string> in_step = {"app", "solve", "step", "0x1000", "0x3000"};
    int step_samples = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      EXPECT_EQ(mine[i]->ts, expected_ms_ns[i])
          << "rank " << rank << " sample " << i
          << ": its time, corrected onto rank 0's clock (rank 1's runs 5 ms "
          << "behind)";
      const bool step = mine[i]->ts >= 13'000'000;
      step_samples += step;
      EXPECT_EQ(mine[i]->functions, step ? in_step : in_solve)
          << "rank " << rank << " sample " << i << ": the intervals the thread was in, then its call path";
      const std::size_t intervals = step ? 3 : 2;
      for (std::size_t f = 0; f < mine[i]->modules.size(); ++f)
        EXPECT_EQ(mine[i]->modules[f], f < intervals ? "[parperf intervals]" : "[unknown]")
            << "frame " << f << " (" << mine[i]->functions[f] << ")";
      EXPECT_EQ(mine[i]->addresses.back(), step ? 0x3000u : 0x2000u);
    }
    EXPECT_EQ(step_samples, kStepSamplesPerRank);
  }
}

// Samples the trace writer could not keep, and a sample naming a node its profile lacks, are said in
// warnings and not exported; the others are, unchanged.
TEST_F(export_perfetto, LostAndUnresolvedSamplesAreWarnedOfAndLeftOut) {
  const auto run = dir_ / "troubled";
  write_export_test_run(run, true);
  LoadedRun loaded(run);
  const std::string lost_warning =
      "trace.0.ppt: " + std::to_string(kLostSamples) + " call-path samples did not reach";
  bool warned = false;
  for (const std::string& w : loaded.traces.warnings) warned |= w.rfind(lost_warning, 0) == 0;
  EXPECT_TRUE(warned) << "no warning of the lost samples: " << testing::PrintToString(loaded.traces.warnings);
  const analysis::TraceSamples samples = analysis::load_trace_samples(loaded.traces);
  EXPECT_EQ(samples.lost, kLostSamples);
  EXPECT_EQ(samples.samples, 2u * kSamplesPerRank) << "the unresolved sample is not counted among the shown";
  ASSERT_EQ(samples.warnings.size(), 1u) << testing::PrintToString(samples.warnings);
  EXPECT_EQ(samples.warnings[0],
            "trace.0.ppt: 1 samples of thread 0 name call paths its profile does not hold: left out");
  const auto file = dir_ / "troubled.perfetto";
  export_with(run, message_flows(), [&](const exports::TimelineNames& names) {
    return std::make_unique<exports::PerfettoWriter>(file, names);
  });
  EXPECT_EQ(decode(read_file_bytes(file)).samples.size(), 2u * kSamplesPerRank);
}

TEST_F(export_perfetto, EachCallStackIsInternedOnce) {
  const auto file = dir_ / "trace.perfetto";
  export_with(dir_ / "run", message_flows(), [&](const exports::TimelineNames& names) {
    return std::make_unique<exports::PerfettoWriter>(file, names);
  });
  // decode() reports a second interning of any iid; count the callstack entries written.
  int callstacks = 0;
  const std::string bytes = read_file_bytes(file);
  for (const ProtoField& packet : read_proto(bytes)) {
    const auto fields = read_proto(packet.bytes);
    if (const ProtoField* interned = find_field(fields, 12))
      for (const ProtoField& entry : read_proto(interned->bytes)) callstacks += entry.number == 7;
  }
  EXPECT_EQ(callstacks, 4) << "two distinct stacks on each of two ranks' threads, each written once";
  EXPECT_TRUE(decode(bytes).problems.empty());
}

// Perfetto's reader refuses a string field that is not UTF-8, and names come from the program: each
// byte that starts no UTF-8 sequence becomes U+FFFD; valid UTF-8 and nested messages stay as they are.
TEST(export_protobuf, StringFieldsAreValidUtf8) {
  exports::ProtoMessage message;
  message.text(1, "bad\xff\xfe name \xc3\xa9\xe2\x82");
  const auto fields = read_proto(message.bytes());
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(std::string(fields[0].bytes),
            "bad\xEF\xBF\xBD\xEF\xBF\xBD name \xc3\xa9\xEF\xBF\xBD\xEF\xBF\xBD");
  exports::ProtoMessage outer;
  outer.message(2, message);
  EXPECT_EQ(std::string(read_proto(outer.bytes())[0].bytes), message.bytes()) << "a nested message is bytes";
}

TEST_F(export_perfetto, ProtocDecodesTheFile) {
  const auto file = dir_ / "trace.perfetto";
  export_with(dir_ / "run", message_flows(), [&](const exports::TimelineNames& names) {
    return std::make_unique<exports::PerfettoWriter>(file, names);
  });
  const std::string command = std::string(PARPERF_PROTOC) + " --decode_raw < " + file.string() + " > " +
                              (dir_ / "decoded.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0)
      << "protoc --decode_raw refused the file: " << read_file_bytes(dir_ / "decoded.txt");
  EXPECT_NE(read_file_bytes(dir_ / "decoded.txt").find("rank 1 (node, pid 1001)"), std::string::npos);
}

}  // namespace
}  // namespace parperf::test
