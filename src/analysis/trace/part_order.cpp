#include "analysis/trace/part_order.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "analysis/trace/part_reductions.hpp"

// GCC 12 warns that a message's bytes overflow a vector it has just grown (PartBytes::put inlined
// into report(), its sizes known): a false positive of its -Wstringop-overflow, here only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

namespace parperf::analysis {
namespace {

// What the parts say to each other while they find their orders, on one conversation. Each message
// begins with its kind and its sender.
enum class Say : std::uint8_t {
  placed,    // nodes of the sender that the receiver reads are placed: u32 run numbers
  drop_hub,  // a cycle is broken through the receiver's hub: u32 its run number
  stuck,     // to part 0: the sender can place nothing more (a Report)
  go_on,     // from part 0: every part was stuck; a cycle is broken at a location (u64 round, u32 location)
  end,       // from part 0: every part is done (u8: 1 if the run is refused)
};

// A part's state when it can place nothing more, as part 0 learns it.
struct Report {
  bool known = false;
  std::uint64_t round = 0;  // cycles broken before it
  bool done = false;        // every node, hub and ghost of the part placed
  bool stuck_at = false;    // a location's node cannot be placed: the earliest such, below
  double time = 0;
  std::uint32_t location = 0;                 // the run's number
  std::vector<std::uint64_t> sent, received;  // messages that make a part go on, per part
};

// Whether a report's node is earlier than another's: by time, then location (the whole graph's order
// breaks the cycle at the first location's earliest node).
bool earlier(const Report& a, const Report& b) {
  return std::tie(a.time, a.location) < std::tie(b.time, b.location);
}

class PartOrder {
 public:
  PartOrder(GraphPart& part, PartExchange& exchange)
      : part_(part),
        g_(part.graph),
        exchange_(exchange),
        tag_(exchange.open()),
        placed_(g_.nodes(), 0),
        arrived_(g_.nodes() - part.first_ghost, 0),
        outbox_(part.parts),
        sent_(part.parts, 0),
        received_(part.parts, 0),
        reports_(part.part == 0 ? part.parts : 0) {
    for (const GraphLocation& l : g_.locations) {
      cursor_.push_back(l.first);
      remaining_ += l.end - l.first;
    }
    // Each hub other parts read, with how many of its sources are not yet placed: it is placed when
    // that count reaches 0 (a walk of them all at every wait took a second of a real report).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> feeds;  // (source, shared hub's index)
    for (std::uint32_t k = g_.first_hub(); k < part.first_ghost; ++k) {
      if (part.read_elsewhere.rank(k) == RankBitmap::kUnmarked) continue;
      const auto i = static_cast<std::uint32_t>(shared_hubs_.size());
      shared_hubs_.push_back(k);
      unplaced_sources_.push_back(0);
      for (const std::uint32_t e : g_.in_edges(k))
        if (g_.edges[e].source != k) {
          feeds.emplace_back(g_.edges[e].source, i);
          ++unplaced_sources_[i];
        }
      if (unplaced_sources_[i] == 0) ready_shared_.push_back(i);
    }
    std::sort(feeds.begin(), feeds.end());
    feeds_.assign(g_.nodes(), 0);
    for (const auto& [source, i] : feeds) {
      feeds_[source] = 1;
      feed_source_.push_back(source);
      feed_hub_.push_back(i);
    }
  }

  // The order, or NotByParts (on every part) for a cycle the order cannot break as the whole graph's
  // does: among hubs only.
  NodeOrder find() {
    bool ended = false, refused = false;
    while (!ended) {
      if (advance()) {
        reported_ = false;
        continue;
      }
      flush();
      if (!reported_) {
        reported_ = true;
        report();  // part 0's own report may end the order, or break a cycle here
        if (decided_) {
          ended = true;
          refused = refused_;
          continue;
        }
        if (!reported_) continue;
      }
      const std::vector<std::uint8_t> message = exchange_.receive(tag_);
      handle(message, ended, refused);
    }
    if (refused)
      throw NotByParts(
          "parallel trace analysis: dependencies that form cycles among hubs are not broken by parts");
    part_.graph.unlinked.cycles_broken += sum_of_parts(exchange_, breaks_);
    order_.shrink_to_fit();
    return std::move(order_);
  }

 private:
  bool is_placed(std::uint32_t k) const { return part_.is_ghost(k) ? arrived(k) : placed_[k] != 0; }
  bool arrived(std::uint32_t k) const { return arrived_[k - part_.first_ghost] != 0; }

  void place(std::uint32_t k) {
    placed_[k] = 1;
    order_.push_back(k);
    if (part_.is_ghost(k)) return;  // counted for the shared hubs when it arrived
    satisfied(k);
    const std::uint32_t r = part_.read_elsewhere.rank(k);
    if (r == RankBitmap::kUnmarked) return;
    const std::uint32_t node = part_.global(k);
    for (std::uint32_t i = part_.readers_begin[r]; i < part_.readers_begin[r + 1]; ++i) {
      PartBytes& box = outbox_[part_.readers[i]];
      if (box.bytes().empty()) start(box, Say::placed);
      box.put(node);
      if (box.bytes().size() >= kBatchBytes) send_placed(part_.readers[i]);
    }
  }

  // Source k of shared hubs is placed (or, a ghost, arrived): those whose last source it was are ready.
  void satisfied(std::uint32_t k) {
    if (!feeds_[k]) return;
    const auto first = std::lower_bound(feed_source_.begin(), feed_source_.end(), k);
    for (auto at = first; at != feed_source_.end() && *at == k; ++at) {
      const std::uint32_t i = feed_hub_[static_cast<std::size_t>(at - feed_source_.begin())];
      if (--unplaced_sources_[i] == 0) ready_shared_.push_back(i);
    }
  }

  // Whether `node`'s sources are placed, placing the hubs among them that are ready and the ghosts
  // that arrived.
  bool ready(std::uint32_t node) {
    for (const std::uint32_t e : g_.in_edges(node)) {
      const std::uint32_t s = g_.edges[e].source;
      if (placed_[s] || s == node) continue;
      if (part_.is_ghost(s)) {
        if (!arrived(s)) return false;
      } else if (!g_.is_hub(s) || !ready(s)) {
        return false;
      }
      place(s);
    }
    return true;
  }

  // Places what can be placed: its locations' nodes in turn, the hubs other parts read (they may wait
  // for them while this part waits for them), and once its locations are done, its other hubs and the
  // ghosts no node reached. Whether it placed any.
  bool advance() {
    bool progress = false;
    for (std::size_t l = 0; l < cursor_.size(); ++l)
      while (cursor_[l] < g_.locations[l].end && ready(cursor_[l])) {
        place(cursor_[l]++);
        --remaining_;
        progress = true;
      }
    while (!ready_shared_.empty()) {
      const std::uint32_t k = shared_hubs_[ready_shared_.back()];
      ready_shared_.pop_back();
      if (!placed_[k] && ready(k)) {
        place(k);
        progress = true;
      }
    }
    if (rescan_shared_) {  // a cycle was broken: the counts no longer hold
      rescan_shared_ = false;
      for (const std::uint32_t k : shared_hubs_)
        if (!placed_[k] && ready(k)) {
          place(k);
          progress = true;
        }
    }
    if (remaining_ > 0) return progress;
    while (first_unplaced_ < g_.nodes() && placed_[first_unplaced_]) ++first_unplaced_;
    for (std::uint32_t k = std::max(first_unplaced_, g_.first_hub()); k < g_.nodes(); ++k)
      if (!placed_[k] && (part_.is_ghost(k) ? arrived(k) : ready(k))) {
        place(k);
        progress = true;
      }
    return progress;
  }

  bool done() const {
    if (remaining_ > 0) return false;
    for (std::uint32_t k = std::max(first_unplaced_, g_.first_hub()); k < g_.nodes(); ++k)
      if (!placed_[k]) return false;
    return true;
  }

  // Tells part 0 that this part can place nothing more, and where it is stuck.
  void report() {
    Report r;
    r.known = true;
    r.round = round_;
    r.done = done();
    for (std::size_t l = 0; l < cursor_.size(); ++l) {
      if (cursor_[l] >= g_.locations[l].end) continue;
      Report here;
      here.time = g_.time[cursor_[l]];
      here.location = part_.first_location + static_cast<std::uint32_t>(l);
      if (!r.stuck_at || earlier(here, r)) {
        r.stuck_at = true;
        r.time = here.time;
        r.location = here.location;
      }
    }
    r.sent = sent_;
    r.received = received_;
    if (part_.part == 0) return take_report(0, std::move(r));
    PartBytes m;
    start(m, Say::stuck);
    m.put(r.round);
    m.put(static_cast<std::uint8_t>(r.done));
    m.put(static_cast<std::uint8_t>(r.stuck_at));
    m.put(r.time);
    m.put(r.location);
    for (const std::uint64_t n : r.sent) m.put(n);
    for (const std::uint64_t n : r.received) m.put(n);
    exchange_.send(0, tag_, m.release());
  }

  void handle(const std::vector<std::uint8_t>& m, bool& ended, bool& refused) {
    std::size_t at = 0;
    const auto kind = take<Say>(m, at);
    const auto from = take<std::uint32_t>(m, at);
    if (from >= part_.parts) throw std::logic_error("a part's order was told by no part");
    switch (kind) {
      case Say::placed:
        ++received_[from];
        while (at < m.size()) {
          const std::uint32_t k = part_.local(take<std::uint32_t>(m, at));
          if (k == kNoNode || !part_.is_ghost(k))
            throw std::logic_error("a part was told of a node none of its nodes depends on");
          if (!arrived_[k - part_.first_ghost]) satisfied(k);
          arrived_[k - part_.first_ghost] = 1;
        }
        reported_ = false;
        return;
      case Say::drop_hub: {
        ++received_[from];
        const std::uint32_t k = part_.local(take<std::uint32_t>(m, at));
        if (k == kNoNode || part_.is_ghost(k) || !g_.is_hub(k))
          throw std::logic_error("a part was told to break a cycle through a hub it does not hold");
        drop_unplaced_edges(k);
        reported_ = false;
        return;
      }
      case Say::stuck: {
        if (part_.part != 0) throw std::logic_error("a part other than the first was told another is stuck");
        Report r;
        r.known = true;
        r.round = take<std::uint64_t>(m, at);
        r.done = take<std::uint8_t>(m, at) != 0;
        r.stuck_at = take<std::uint8_t>(m, at) != 0;
        r.time = take<double>(m, at);
        r.location = take<std::uint32_t>(m, at);
        for (std::uint32_t p = 0; p < part_.parts; ++p) r.sent.push_back(take<std::uint64_t>(m, at));
        for (std::uint32_t p = 0; p < part_.parts; ++p) r.received.push_back(take<std::uint64_t>(m, at));
        take_report(from, std::move(r));
        if (decided_) {
          ended = true;
          refused = refused_;
        }
        return;
      }
      case Say::go_on: {
        const auto round = take<std::uint64_t>(m, at);
        const auto location = take<std::uint32_t>(m, at);
        go_on(round, location);
        return;
      }
      case Say::end:
        ended = true;
        refused = take<std::uint8_t>(m, at) != 0;
        return;
    }
    throw std::logic_error("a part's order was told what it does not know");
  }

  // Part 0: a part's latest report. Once every part is stuck in the same round, with every message
  // between them received (each part's count of those it sent to another is that one's count of those
  // it received: none is under way that could let one go on), the run is stuck as the whole graph's
  // order would be: it breaks the cycle at the earliest stuck node of all, or ends.
  void take_report(std::uint32_t from, Report r) {
    if (r.round != round_) return;  // from before a cycle was broken: another comes
    reports_[from] = std::move(r);
    for (const Report& each : reports_)
      if (!each.known || each.round != round_) return;
    for (std::uint32_t p = 0; p < part_.parts; ++p)
      for (std::uint32_t q = 0; q < part_.parts; ++q)
        if (reports_[p].sent[q] != reports_[q].received[p]) return;
    const Report* earliest = nullptr;
    bool all_done = true;
    for (const Report& each : reports_) {
      all_done = all_done && each.done;
      if (each.stuck_at && (!earliest || earlier(each, *earliest))) earliest = &each;
    }
    if (all_done || !earliest) {  // done; or stuck among hubs only
      decided_ = true;
      refused_ = !all_done;
      for (std::uint32_t p = 1; p < part_.parts; ++p) {
        PartBytes m;
        start(m, Say::end);
        m.put(static_cast<std::uint8_t>(refused_));
        exchange_.send(p, tag_, m.release());
      }
      return;
    }
    const std::uint32_t location = earliest->location;
    for (std::uint32_t p = 1; p < part_.parts; ++p) {
      PartBytes m;
      start(m, Say::go_on);
      m.put(round_);
      m.put(location);
      exchange_.send(p, tag_, m.release());
    }
    go_on(round_, location);
  }

  // A cycle is broken at the stuck node of the run's location `location`: by its part, which drops the
  // edges into it from nodes not yet placed, as the whole graph's order drops them.
  void go_on(std::uint64_t round, std::uint32_t location) {
    if (round != round_) throw std::logic_error("a part was told to break a cycle out of turn");
    ++round_;
    for (Report& r : reports_) r.known = false;
    reported_ = false;
    if (location < part_.first_location || location - part_.first_location >= cursor_.size()) return;
    const std::uint32_t l = location - part_.first_location;
    if (cursor_[l] >= g_.locations[l].end)
      throw std::logic_error("a cycle broken at a location that is done");
    drop_unplaced_edges(cursor_[l]);
  }

  // The edges into `node` from nodes not placed become edges from itself (ignored by every pass),
  // those through hubs not placed dropped at the hub's own sources (by the hub's part, for another's).
  void drop_unplaced_edges(std::uint32_t node) {
    rescan_shared_ = true;
    for (const std::uint32_t e : g_.in_edges(node)) {
      GraphEdge& edge = part_.graph.edges[e];
      const std::uint32_t s = edge.source;
      if (s == node || is_placed(s)) continue;
      if (part_.is_ghost(s) && part_.global(s) >= part_.run_first_hub) {
        const std::uint32_t owner = part_.ghost_owner[s - part_.first_ghost];
        PartBytes m;
        start(m, Say::drop_hub);
        m.put(part_.global(s));
        ++sent_[owner];
        exchange_.send(owner, tag_, m.release());
        continue;
      }
      if (!part_.is_ghost(s) && g_.is_hub(s)) {
        drop_unplaced_edges(s);
        continue;
      }
      edge.source = node;
      ++breaks_;
    }
  }

  static constexpr std::size_t kBatchBytes = 16384;
  void start(PartBytes& m, Say kind) const {
    m.put(kind);
    m.put(part_.part);
  }
  template <class T>
  static T take(const std::vector<std::uint8_t>& m, std::size_t& at) {
    if (m.size() - at < sizeof(T)) throw std::logic_error("a part's order was told something cut short");
    T v;
    std::memcpy(&v, m.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  void send_placed(std::uint32_t to) {
    ++sent_[to];
    exchange_.send(to, tag_, outbox_[to].release());
  }
  void flush() {
    for (std::uint32_t to = 0; to < outbox_.size(); ++to)
      if (!outbox_[to].bytes().empty()) send_placed(to);
  }

  GraphPart& part_;
  const ActivityGraph& g_;
  PartExchange& exchange_;
  std::uint32_t tag_;
  std::vector<std::uint8_t> placed_;                   // per node (a ghost: placed in this part's order)
  std::vector<std::uint8_t> arrived_;                  // per ghost: its owner placed it
  std::vector<std::uint32_t> cursor_;                  // per location: its first node not placed
  std::size_t remaining_ = 0;                          // location nodes not placed
  std::vector<std::uint32_t> shared_hubs_;             // its hubs other parts read
  std::vector<std::uint32_t> unplaced_sources_;        // per shared hub
  std::vector<std::uint32_t> ready_shared_;            // shared hubs whose sources are all placed
  std::vector<std::uint8_t> feeds_;                    // per node: a source of a shared hub
  std::vector<std::uint32_t> feed_source_, feed_hub_;  // by source: the shared hubs each feeds
  bool rescan_shared_ = false;
  std::uint32_t first_unplaced_ = 0;  // every node before it is placed (once the locations are done)
  NodeOrder order_;
  std::vector<PartBytes> outbox_;               // per part: placed nodes it reads, not yet sent
  std::vector<std::uint64_t> sent_, received_;  // per part: placed batches and hubs to drop at
  std::uint64_t round_ = 0;                     // cycles broken so far
  std::uint64_t breaks_ = 0;                    // edges this part dropped
  bool reported_ = false;                       // stuck, and said so
  std::vector<Report> reports_;                 // part 0: every part's latest
  bool decided_ = false, refused_ = false;      // part 0: the end
};

}  // namespace

NodeOrder order_part(GraphPart& part, PartExchange& exchange) { return PartOrder(part, exchange).find(); }

}  // namespace parperf::analysis
