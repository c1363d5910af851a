// The calls of one message channel (sender, receiver, communicator, tag) waiting for their partners:
// MPI's non-overtaking rule pairs a channel's n-th send with its n-th receive, so a call takes the
// first waiting call of the other kind if there is one, and waits otherwise. The whole run's matching
// (messages.cpp) keeps one a channel; a part's (part_matching.cpp) one for each channel both of whose
// ranks it holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/trace/messages.hpp"

namespace parperf::analysis {

class ChannelQueue {
 public:
  // A send (`is_send`) or a receive of the channel, under `tag`: paired with the first call of the
  // other kind waiting, the message appended to `out`; else left to wait.
  template <class Messages>
  void offer(std::int64_t tag, bool is_send, const CallSide& side, CallKind kind, std::uint64_t bytes,
             Messages& out) {
    if (waiting() > 0 && sends_ != is_send) {
      const Pending& partner = calls_[taken_++];
      if (is_send)
        out.push_back({side, partner.side, tag, bytes, kind, partner.kind});
      else
        out.push_back({partner.side, side, tag, partner.bytes, partner.kind, kind});
      if (waiting() == 0) {  // kept, with its room, for the channel's next calls
        calls_.clear();
        taken_ = 0;
      } else if (taken_ >= 64 && 2 * taken_ >= calls_.size()) {  // a channel that never empties
        calls_.erase(calls_.begin(), calls_.begin() + static_cast<std::ptrdiff_t>(taken_));
        taken_ = 0;
      }
      return;
    }
    sends_ = is_send;
    calls_.push_back({side, bytes, kind});
  }
  // The calls left waiting: sends, or receives.
  std::size_t waiting() const { return calls_.size() - taken_; }
  bool waiting_sends() const { return sends_; }

 private:
  struct Pending {
    CallSide side;
    std::uint64_t bytes = 0;  // a send's
    CallKind kind = 0;
  };
  bool sends_ = true;
  std::size_t taken_ = 0;  // calls at the front already paired
  std::vector<Pending> calls_;
};

}  // namespace parperf::analysis
