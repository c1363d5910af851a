// An OTF2 archive (Open Trace Format 2, through the OTF2 library): the format Score-P writes and
// Vampir and Scalasca read. `--otf2 DIR` writes DIR/traces.otf2 (the anchor file), DIR/traces.def
// (global definitions) and DIR/traces/ (one event file per location).
//
// Definitions: a system tree (machine, then one node per host), one location group (process) per
// rank ("rank 0"), one location (CPU thread) per thread, named by rank and thread ("rank 0 thread
// 1") as Score-P names its locations, a region per distinct site, the MPI communicators
// (MPI_COMM_WORLD, also for operations that name none, and each other communicator the profiles
// list, identified across ranks by its members' hash and ordinal, its members in the order of their
// ranks in it). Events, at clock-corrected times: Enter/Leave for intervals and operations; inside an
// operation's Enter/Leave, MpiSend at the start of a send (MPI_Send, MPI_Sendrecv, MPI_Isend),
// MpiRecv at the end of the call a message arrived in (MPI_Recv, MPI_Sendrecv, the Wait/Test that
// completed an MPI_Irecv), with the partner as a rank of the communicator, tag and bytes, and
// MpiCollectiveBegin/End around a collective (its root, when it has one, and the bytes sent and
// received as Score-P counts them: otf2_vocabulary.hpp); MPI's one-sided calls and OpenSHMEM's in
// RMA records on their windows (otf2_rma.hpp; the windows, OpenSHMEM's communicators and the epochs'
// groups: otf2_communicators.hpp). Every location's records lie inside an Enter and a Leave of the
// program's region, from its first record to its last.
//
// Limits, for what the trace cannot say in OTF2's terms: a non-blocking send or receive is written
// as a blocking one where its message leaves or arrives (OTF2's MpiIsend/MpiIrecv pair their records
// by request ids, which the trace does not keep); user events, iteration marks and the lost-time
// counter are not written.
//
// Call-path samples (`parperf run --trace --sample`) are CallingContextSample records on their
// thread's location, merged into its Enter/Leave records in time order (a sample at an event's time
// comes before it), their stacks a calling-context tree (otf2_calling_contexts.hpp), their timer an
// InterruptGenerator. A sample of weight w (the timer fired w times before it was delivered) is w
// records at its time, so that the samples count what `parperf report --functions` counts. OTF2
// says CallingContext events and Enter/Leave should not both be in a trace (Score-P's unwinding
// writes CallingContextEnter/Leave instead); the intervals stay Enter/Leave so that an archive reads
// the same with and without samples, and every sample's context starts with the intervals it was
// taken in. A run without samples is written as before: no calling-context definition.
#pragma once

#include <filesystem>
#include <memory>

#include "export/timeline_slices.hpp"

namespace parperf::exports {

class Otf2Writer final : public TimelineWriter {
 public:
  // Throws naming `directory` when it already holds an archive or the archive cannot be created.
  Otf2Writer(const std::filesystem::path& directory, const TimelineNames& names);
  ~Otf2Writer() override;
  void samples_ahead(const TimelineSamples& samples) override;
  void event(const analysis::TimelineEvent& e) override;
  void item(const TimelineItem& item) override;
  void finish() override;

 private:
  struct Archive;
  std::unique_ptr<Archive> archive_;
};

}  // namespace parperf::exports
