#include "runtime/call_path_section.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "runtime/code_modules.hpp"
#include "runtime/interval_tree.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/sampler.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {

void write_call_paths(format::RecordWriter<FileSink>& w, const ThreadState* head,
                      bool in_signal_handler) noexcept {
  if (!sampling_active()) return;
  // Libraries loaded after the last thread started: their leaf addresses get a module too.
  if (!in_signal_handler) refresh_code_modules();
  format::CallPathsRecord header;
  header.clock = config().sample_wall_clock ? format::SampleClock::wall : format::SampleClock::cpu;
  header.module_count = code_module_count();
  header.period_ns = sample_period_ns();
  switch (sample_sources()) {
    case SampleSources::perf_event:
      header.source = format::SampleSource::perf_event;
      break;
    case SampleSources::both:
      header.source = format::SampleSource::both;
      break;
    default:
      header.source = format::SampleSource::timer;
  }
  // A thread of the list may start sampling while this is written (never stop): the threads counted
  // now are sampled below too, so at least as many are found, and no more than these are written.
  for (const ThreadState* t = head; t; t = t->next)
    header.thread_count += t->sampling.load(std::memory_order_acquire) ? 1 : 0;
  w.begin_section(format::SectionType::call_paths);
  w.record(header);
  for (std::uint32_t m = 0; m < header.module_count; ++m) {
    format::CallPathModuleRecord module;
    module.id = m;
    const char* path = code_module_path(m);
    module.path = std::string_view(path, std::strlen(path));
    w.record(module);
  }
  std::uint32_t written = 0;
  for (const ThreadState* t = head; t && written < header.thread_count; t = t->next) {
    const ThreadSampling* sampling = t->sampling.load(std::memory_order_acquire);
    if (!sampling) continue;
    ++written;
    const CallPathTable& table = *sampling->table;
    // Read once: the count announced is the count written, whatever the handler adds meanwhile.
    const std::uint32_t count = table.node_count.load(std::memory_order_acquire);
    format::CallPathThreadRecord thread;
    thread.thread = t->index;
    thread.node_count = count;
    // A running thread (the writing one included) may take samples while its nodes are read: the
    // header is read first and the nodes' counts are held within it, so a profile never records
    // more samples than it says were taken. What is left out is what landed during the write.
    thread.dropped = table.dropped.get();
    thread.samples = table.samples.get();
    if (thread.dropped > thread.samples) thread.dropped = thread.samples;
    std::uint64_t unclaimed = thread.samples - thread.dropped;
    w.record(thread);
    for (std::uint32_t i = 0; i < count; ++i) {
      const CallPathNode& n = table.nodes[i];
      format::CallPathNodeRecord r;
      r.parent = n.parent;
      // A node created after its thread section was written has no index in it: the root's.
      const std::uint32_t interval = n.interval ? n.interval->written_index : 0;
      r.interval = interval == 0xffffffffu ? 0 : interval;
      r.frame = n.frame;
      r.address = n.address;
      if (const CodeRange* range = code_range_of(n.address); range && range->module < header.module_count) {
        r.module = range->module;
        r.address = n.address - range->load_bias;
      }
      r.samples = std::min(n.samples.get(), unclaimed);
      unclaimed -= r.samples;
      w.record(r);
    }
  }
  w.end_section();

  // The samples counted apart, in start-up and shut-down: the same threads.
  w.begin_section(format::SectionType::setup_samples);
  written = 0;
  for (const ThreadState* t = head; t && written < header.thread_count; t = t->next) {
    const ThreadSampling* sampling = t->sampling.load(std::memory_order_acquire);
    if (!sampling) continue;
    ++written;
    format::SetupSamplesRecord setup;
    setup.thread = t->index;
    setup.start_up = sampling->table->start_up.get();
    setup.shut_down = sampling->table->shut_down.get();
    w.record(setup);
  }
  w.end_section();
}

}  // namespace parperf::runtime
