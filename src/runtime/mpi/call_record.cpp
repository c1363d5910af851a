#include "runtime/mpi/call_record.hpp"

#include "format/site_kinds.hpp"
#include "runtime/collector_api.h"
#include "runtime/mpi/communicator_samples.hpp"

namespace parperf::mpi {

namespace {

// The call's site: the MPI function, where the program called it, and its kind.
parperf_operation operation_at(const CallRecord& call) noexcept {
  parperf_operation operation{};
  operation.name = call.name;
  operation.address = call.caller;
  operation.kind = static_cast<std::uint32_t>(call.kind);
  return operation;
}

}  // namespace

void record(const CallRecord& call) noexcept {
  parperf_operation operation = operation_at(call);
  operation.start = call.start;
  operation.end = call.end;
  operation.wait = call.real_sync;  // waiting for the partner: before the transfer proper
  operation.overlap = call.overlap;
  operation.bytes = call.bytes;
  operation.partner = call.partner;
  if (call.communicator >= 0) {
    operation.communicator = static_cast<std::uint32_t>(call.communicator) + 1;
    operation.match = static_cast<std::int64_t>(next_collective_sequence(call.communicator));
  } else if (call.message_communicator >= 0) {
    operation.communicator = static_cast<std::uint32_t>(call.message_communicator) + 1;
    operation.match = call.tag;
  }
  parperf_position where{};
  if (!parperf_collector_record(&operation, &where) || call.communicator < 0) return;
  sample_collective(call.communicator, where, call.start, call.no_departure ? 0 : call.end);
}

void trace_message(const CallRecord& call, const ArrivedMessage& message) noexcept {
  parperf_operation operation = operation_at(call);
  operation.start = call.end;
  operation.end = call.end;
  operation.bytes = message.bytes;
  operation.partner = message.sender;
  operation.communicator = static_cast<std::uint32_t>(message.communicator) + 1;
  operation.match = message.tag;
  parperf_collector_trace(&operation);
}

bool trace_group_member(const CallRecord& call, std::int64_t world_rank) noexcept {
  parperf_operation operation = operation_at(call);
  operation.start = call.end;
  operation.end = call.end;
  operation.partner = world_rank;
  operation.communicator = static_cast<std::uint32_t>(call.message_communicator) + 1;
  operation.match = format::kWindowGroupMember;
  return parperf_collector_trace(&operation) != 0;
}

}  // namespace parperf::mpi
