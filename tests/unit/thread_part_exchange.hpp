// The parts of a graph analysed at once on threads of one process, saying to each other what the
// processes of `parperf report --np K` say over MPI (part_exchange.hpp): for the tests of the
// analyses by parts, which then run under ThreadSanitizer.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/trace/part_exchange.hpp"

namespace parperf::test {

class ThreadExchanges {
 public:
  explicit ThreadExchanges(std::uint32_t parts) : parts_(parts), slots_(parts) {
    for (std::uint32_t p = 0; p < parts; ++p) exchanges_.emplace_back(*this, p);
  }
  analysis::PartExchange& of(std::uint32_t part) { return exchanges_[part]; }

  // Runs f(part, exchange) for every part, each on a thread of its own; rethrows the first part's
  // error (in part order) once all are done.
  void run(const std::function<void(std::uint32_t, analysis::PartExchange&)>& f) {
    std::vector<std::exception_ptr> errors(parts_);
    std::vector<std::thread> threads;
    for (std::uint32_t p = 0; p < parts_; ++p)
      threads.emplace_back([&, p] {
        try {
          f(p, of(p));
        } catch (...) {
          errors[p] = std::current_exception();
        }
      });
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }

 private:
  class Exchange : public analysis::PartExchange {
   public:
    Exchange(ThreadExchanges& all, std::uint32_t part) : all_(all), part_(part) {}
    std::uint32_t part() const override { return part_; }
    std::uint32_t parts() const override { return all_.parts_; }
    void send(std::uint32_t to, std::uint32_t tag, std::vector<std::uint8_t> bytes) override {
      const std::lock_guard lock(all_.mutex_);
      all_.boxes_[{to, tag}].push_back(std::move(bytes));
      all_.changed_.notify_all();
    }
    std::vector<std::uint8_t> receive(std::uint32_t tag) override {
      std::unique_lock lock(all_.mutex_);
      std::deque<std::vector<std::uint8_t>>& box = all_.boxes_[{part_, tag}];
      all_.changed_.wait(lock, [&] { return !box.empty(); });
      std::vector<std::uint8_t> batch = std::move(box.front());
      box.pop_front();
      return batch;
    }
    std::vector<std::vector<std::uint8_t>> gather_all(const std::vector<std::uint8_t>& mine) override {
      std::unique_lock lock(all_.mutex_);
      all_.slots_[part_] = mine;
      const std::uint64_t round = all_.round_;
      if (++all_.gathered_ == all_.parts_) {
        all_.gathered_ = 0;
        all_.result_ = all_.slots_;
        ++all_.round_;
        all_.changed_.notify_all();
      } else {
        all_.changed_.wait(lock, [&] { return all_.round_ != round; });
      }
      return all_.result_;  // no round can end again before this part has given its part of it
    }

   private:
    ThreadExchanges& all_;
    std::uint32_t part_;
  };

  std::uint32_t parts_;
  std::deque<Exchange> exchanges_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::deque<std::vector<std::uint8_t>>> boxes_;
  std::vector<std::vector<std::uint8_t>> slots_, result_;
  std::uint32_t gathered_ = 0;
  std::uint64_t round_ = 0;
};

}  // namespace parperf::test
