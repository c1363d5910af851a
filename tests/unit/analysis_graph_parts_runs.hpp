// Hand-built traced runs for the analyses of the graph by parts (graph_part.hpp): the unit tests on
// threads (analysis_graph_parts_test.cpp) and the MPI job (tests/scenarios/graph_parts_mpi) build the
// same runs.
#pragma once

#include <algorithm>
#include <cstdint>

#include "analysis/trace/trace_run.hpp"
#include "format/shmem_active_set.hpp"
#include "format/site_kinds.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::test {

using format::SiteKind;
using format::TraceEvent;
using format::TraceEventKind;

// A random number generator whose sequence is the same on every platform (a linear congruential
// one): the random runs below are the same runs wherever the tests run.
struct SeededRandom {
  std::uint64_t state;
  std::uint32_t operator()(std::uint32_t n) {  // 0 .. n - 1
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>((state >> 33) % n);
  }
};

inline TraceEvent at(TraceEventKind kind, double when_ms, std::uint32_t site = 0) {
  return {.kind = kind, .ticks = test::ms(when_ms), .site = site};
}

// `ranks` ranks of two threads, 12 rounds of 40 ms. Each round rank r works in "compute" for
// 2 + (7r + 3i) mod 5 ms, sends a growing message to r + 1 and receives one from r - 1 (a ring), then
// runs a parallel region on both threads in which each takes a lock and passes a barrier; every third
// round an MPI_Allreduce, every fourth an MPI_Bcast from rank i mod ranks; recording is off for a
// while in round 6; odd ranks run "compute" inside "halo" (the names and interval stacks met in
// another order by ranks, and so by parts); each round every rank puts 1 KiB into rank r + 2's memory;
// rank 0 sends a message nobody receives and rank 2 receives one nobody sends; then each rank holds
// rank 0's lock of the world's window for 0.8 ms, one after the other (rank 1 shared in even rounds),
// so that after their clocks' correction some holds are handed on and some granted before the
// previous holder released the lock (not linked); and thread 1 takes an OpenSHMEM lock in turn, 0.7 ms
// each, after the parallel region; then post-start-complete-wait around the ring on the world's
// window (each rank exposes it to r - 1 and accesses r + 1's). Odd ranks' clocks are
// corrected 3 ms too far back, so that their receives end before their sends began: the repair moves them.
// Every kind of edge a part can cut: messages, collectives' hubs and window locks between ranks, forks,
// barriers' hubs and locks within one.
inline analysis::TraceRun rich_run(TraceRunBuilder& b, int ranks) {
  for (int r = 0; r < ranks; ++r) {
    b.rank(r, static_cast<std::uint32_t>(ranks), static_cast<std::uint32_t>(r % 3));
    const auto compute = b.site(SiteKind::user, "compute", "rich.c", 10);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "rich.c", 20);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "rich.c", 21);
    const auto allreduce = b.site(SiteKind::mpi_reduction, "MPI_Allreduce", "rich.c", 30);
    const auto bcast = b.site(SiteKind::mpi_broadcast, "MPI_Bcast", "rich.c", 31);
    const auto region = b.site(SiteKind::omp_parallel, "parallel", "rich.c", 40);
    const auto lock = b.site(SiteKind::omp_lock, "omp_set_lock", "rich.c", 41);
    const auto barrier = b.site(SiteKind::omp_barrier, "omp barrier", "rich.c", 42);
    const auto halo = b.site(SiteKind::user, "halo", "rich.c", 50);
    const auto put = b.site(SiteKind::shmem_put, "shmem_putmem", "rich.c", 60);
    const auto win_lock = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_lock", "rich.c", 70);
    const auto win_unlock = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_unlock", "rich.c", 71);
    const auto set_lock = b.site(SiteKind::shmem_lock, "shmem_set_lock", "rich.c", 80);
    const auto clear_lock = b.site(SiteKind::shmem_lock, "shmem_clear_lock", "rich.c", 81);
    const auto post = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_post", "rich.c", 90);
    const auto start = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_start", "rich.c", 91);
    const auto complete = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_complete", "rich.c", 92);
    const auto wait = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_wait", "rich.c", 93);
    std::int64_t collectives = 0;
    for (int i = 0; i < 12; ++i) {
      const double t = 1 + 40.0 * i;
      const double work = 2 + (7 * r + 3 * i) % 5;
      if (r % 2 == 1) b.event(at(TraceEventKind::enter, t, halo));  // names met in another order
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      if (r % 2 == 1) b.event(at(TraceEventKind::leave, t + work, halo));
      const std::uint64_t bytes = 8u << (3 * (i % 6));                      // 8 B to 256 KiB
      b.op(send, t + work, t + work + 0.3, (r + 1) % ranks, i % 3, bytes);  // a channel: 4 messages
      b.op(recv, t + work + 0.3, t + 9 + 0.1 * r, (r + ranks - 1) % ranks, i % 3, bytes);
      const std::int64_t instance = 1000 + i;
      for (std::uint32_t thread = 0; thread < 2; ++thread)
        b.event(at(TraceEventKind::enter, t + 10 + 0.2 * thread, region), thread);
      for (std::uint32_t thread = 0; thread < 2; ++thread) {
        const double got = t + 11 + 1.5 * thread;
        b.op(lock, got - 0.2, got + 1, -1, 5, 0, thread, false);
        b.op(barrier, t + 14 + thread + 0.1 * r, t + 16.5, -1, instance, 0, thread, false);
      }
      for (std::uint32_t thread = 0; thread < 2; ++thread)
        b.event(at(TraceEventKind::leave, t + 17, region), thread);
      if (i % 3 == 0) b.op(allreduce, t + 18 + 0.3 * r, t + 22, -1, collectives++, 64);
      if (i % 4 == 0) b.op(bcast, t + 23 + 0.2 * r, t + 25, i % ranks, collectives++, 4096);
      b.op(put, t + 26.5, t + 26.6, (r + 2) % ranks, 0, 1024);        // one-sided, into another rank
      if (i == 3 && r == 0) b.op(send, t + 27, t + 27.1, 1, 999, 8);  // never received
      if (i == 3 && r == 2) b.op(recv, t + 27, t + 27.5, 1, 998, 8);  // never sent
      if (i == 6)
        b.event(at(TraceEventKind::recording_off, t + 26)).event(at(TraceEventKind::recording_on, t + 30));
      const bool shared = r == 1 && i % 2 == 0;
      const double granted = t + 31.2 + 0.9 * r;
      b.op(win_lock, t + 31, granted, 0,
           static_cast<std::int64_t>(shared ? format::WindowLockType::shared
                                            : format::WindowLockType::exclusive));
      b.op(win_unlock, granted + 0.8, granted + 0.85, 0, 0);
      // Thread 1, after the parallel region: an OpenSHMEM lock taken in turn.
      const std::int64_t shmem_lock = format::kShmemLockInImage | 0x40;
      const double got = t + 20.5 + 0.8 * r;
      b.op(set_lock, t + 20, got, -1, shmem_lock, 0, 1, false);
      b.op(clear_lock, got + 0.7, got + 0.75, -1, shmem_lock, 0, 1, false);
      // Post-start-complete-wait: rank q posts at post_at(q); its start returns after its right
      // neighbour's post, its wait after its left neighbour's complete began.
      const auto post_at = [&](int q) { return t + 36.2 + 0.3 * q; };
      const auto started = [&](int q) { return std::max(post_at(q) + 0.1, post_at((q + 1) % ranks)) + 0.05; };
      const int left = (r + ranks - 1) % ranks;
      const double waits_from = started(r) + 0.2;
      b.op(post, post_at(r), post_at(r) + 0.05, left, 1)
          .op(start, post_at(r) + 0.1, started(r), (r + 1) % ranks, 1)
          .op(complete, started(r) + 0.1, started(r) + 0.15, -1, 1)
          .op(wait, waits_from, std::max(waits_from, started(left) + 0.1) + 0.05, -1, 1);
    }
    if (r % 2 == 1) b.correct_clock(r, -3);
  }
  return b.build();
}

// `ranks` ranks in a chain, three rounds: rank 0 computes 10 ms and sends to rank 1; each other rank
// receives from the one before, computes 1 ms and sends on. Rank r waits about 10 + (r - 1) ms, of
// which the walk back charges 1 ms to each rank before it and the rest to rank 0: walks that cross
// every cut. `rank0_pauses`: rank 0 alone switches recording off for its second round (the run then
// has phases, which every rank has its bounds in, though no other rank switched).
inline analysis::TraceRun chain_run(TraceRunBuilder& b, int ranks, bool rank0_pauses = false) {
  for (int r = 0; r < ranks; ++r) {
    b.rank(r, static_cast<std::uint32_t>(ranks));
    const auto compute = b.site(SiteKind::user, "stage", "chain.c", 7);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "chain.c", 8);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "chain.c", 9);
    for (int i = 0; i < 3; ++i) {
      const double t = 1 + 40.0 * i, work = r == 0 ? 10 : 1;
      const double ready = r == 0 ? t : t + 10 + (r - 1) + 0.1 * r;  // the message from r - 1 arrived
      if (r > 0) b.op(recv, t, ready, r - 1, i, 8);
      if (r == 0 && rank0_pauses && i == 1) b.event(at(TraceEventKind::recording_off, t - 5));
      if (r == 0 && rank0_pauses && i == 2) b.event(at(TraceEventKind::recording_on, t - 5));
      b.event(at(TraceEventKind::enter, ready, compute))
          .event(at(TraceEventKind::leave, ready + work, compute));
      if (r + 1 < ranks) b.op(send, ready + work, ready + work + 0.05, r + 1, i, 8);
    }
  }
  return b.build();
}

// `ranks` ranks, three rounds: each rank computes, then an MPI_Reduce to rank `ranks - 1`, then
// every rank but the last receives a message the last rank sends after the reduce. The reduce's hub
// leads only into the last rank's end, and its first source is rank 0's: a part that holds rank 0
// but not the last must give the hub to the last rank's part before it can receive the message.
inline analysis::TraceRun reduce_then_reply_run(TraceRunBuilder& b, int ranks) {
  for (int r = 0; r < ranks; ++r) {
    b.rank(r, static_cast<std::uint32_t>(ranks));
    const auto compute = b.site(SiteKind::user, "compute", "reply.c", 5);
    const auto reduce = b.site(SiteKind::mpi_reduction, "MPI_Reduce", "reply.c", 6);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "reply.c", 7);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "reply.c", 8);
    const bool last = r == ranks - 1;
    for (int i = 0; i < 3; ++i) {
      const double t = 1 + 30.0 * i, work = 2 + r;
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      b.op(reduce, t + work, t + 12 + (last ? 0.5 : 0), ranks - 1, i, 64);
      if (last)
        for (int to = 0; to + 1 < ranks; ++to) b.op(send, t + 13 + 0.1 * to, t + 13.05 + 0.1 * to, to, i, 8);
      else
        b.op(recv, t + 12.2, t + 13.5 + 0.1 * r, ranks - 1, i, 8);
    }
  }
  return b.build();
}

// `ranks` ranks in a ring whose trace cannot have happened: in each of three rounds every rank first
// receives from the rank before it and only then sends to the rank after it, each receive ending
// after the send it pairs with. The messages form a cycle through every rank (a damaged trace's, or
// one whose events were recorded out of order), which the graph's order breaks: an edge dropped per
// round, where the cycle is found, the same whatever the parts.
inline analysis::TraceRun crossed_ring_run(TraceRunBuilder& b, int ranks) {
  for (int r = 0; r < ranks; ++r) {
    b.rank(r, static_cast<std::uint32_t>(ranks));
    const auto compute = b.site(SiteKind::user, "compute", "ring.c", 3);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "ring.c", 4);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "ring.c", 5);
    for (int i = 0; i < 3; ++i) {
      const double t = 1 + 20.0 * i;
      b.op(recv, t + 0.1 * r, t + 6 + 0.2 * r, (r + ranks - 1) % ranks, i, 8);
      b.event(at(TraceEventKind::enter, t + 6 + 0.2 * r, compute))
          .event(at(TraceEventKind::leave, t + 8 + 0.3 * r, compute));
      b.op(send, t + 8 + 0.3 * r, t + 8.1 + 0.3 * r, (r + 1) % ranks, i, 8);
    }
  }
  return b.build();
}

// `pes` OpenSHMEM PEs (at least 3), four rounds of 30 ms. Each round PE r computes 2 + (3r + i) mod 4
// ms, puts 1 KiB into PE r + 1 and completes it with shmem_quiet, waits in shmem_int_wait_until (for
// PE r - 1's put), then passes shmem_barrier_all; the even PEs then pass a shmem_barrier over their
// active set and receive a broadcast from PE 2 over it; every PE then joins a sum reduction over all,
// but PE 1 skips the last round's (an instance not every member traced: unlinked) and calls a collect
// whose set was not recorded instead. PE 3's clock is corrected 2 ms too far back, so that it leaves
// the barriers before the last PE arrived: the repair moves it. Instances whose members, hubs and
// roots are spread over every cut of the PEs.
inline analysis::TraceRun shmem_run(TraceRunBuilder& b, int pes) {
  const std::int64_t evens = format::shmem_active_set_match(0, 1, (pes + 1) / 2);
  const std::int64_t all = format::shmem_active_set_match(0, 0, pes);
  for (int r = 0; r < pes; ++r) {
    b.rank(r, static_cast<std::uint32_t>(pes));
    const auto compute = b.site(SiteKind::user, "compute", "shmem.c", 10);
    const auto put = b.site(SiteKind::shmem_put, "shmem_putmem", "shmem.c", 11);
    const auto quiet = b.site(SiteKind::shmem_memory_sync, "shmem_quiet", "shmem.c", 12);
    const auto wait = b.site(SiteKind::shmem_point_sync, "shmem_int_wait_until", "shmem.c", 13);
    const auto barrier_all = b.site(SiteKind::shmem_barrier, "shmem_barrier_all", "shmem.c", 14);
    const auto barrier = b.site(SiteKind::shmem_barrier, "shmem_barrier", "shmem.c", 15);
    const auto broadcast = b.site(SiteKind::shmem_broadcast, "shmem_broadcast64", "shmem.c", 16);
    const auto reduce = b.site(SiteKind::shmem_reduction, "shmem_int_sum_to_all", "shmem.c", 17);
    const auto collect = b.site(SiteKind::shmem_gather_scatter, "shmem_collect64", "shmem.c", 18);
    for (int i = 0; i < 4; ++i) {
      const double t = 1 + 30.0 * i, work = 2 + (3 * r + i) % 4;
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      b.op(put, t + work, t + work + 0.1, (r + 1) % pes, 0, 1024, 0, false)
          .op(quiet, t + work + 0.1, t + work + 0.5, -1, 0, 0, 0, false)
          .op(wait, t + work + 0.5, t + 7 + 0.1 * r, -1, 0, 0, 0, false)
          .op(barrier_all, t + 8 + 0.1 * r, t + 10, -1, 0, 0, 0, false);
      if (r % 2 == 0)
        b.op(barrier, t + 11 + 0.2 * r, t + 12, -1, evens, 0, 0, false)
            .op(broadcast, t + 12.5 + 0.1 * r, t + 14, 2, evens, 64, 0, false);
      if (r == 1 && i == 3)
        b.op(collect, t + 15, t + 16, -1, 0, 8, 0, false);
      else
        b.op(reduce, t + 15 + 0.1 * r, t + 17, -1, all, 4, 0, false);
    }
    if (r == 3) b.correct_clock(r, -2);
  }
  return b.build();
}

// `ranks` ranks (even), three rounds: each rank computes 1 + (r + i) mod 3 ms, then swaps with its
// pair (r xor 1) in one MPI_Sendrecv, then with the pair of the next round's cut ((r + 1) xor 1) - 1,
// a ring of swaps. Each Sendrecv is the send of one message and the receive of another: two messages
// whose later call is the same event, which the matching must order as the whole run's does, whatever
// part pairs them.
inline analysis::TraceRun sendrecv_run(TraceRunBuilder& b, int ranks) {
  for (int r = 0; r < ranks; ++r) {
    b.rank(r, static_cast<std::uint32_t>(ranks));
    const auto compute = b.site(SiteKind::user, "compute", "swap.c", 3);
    const auto swap = b.site(SiteKind::mpi_sendrecv, "MPI_Sendrecv", "swap.c", 4);
    for (int i = 0; i < 3; ++i) {
      const double t = 1 + 20.0 * i, work = 1 + (r + i) % 3;
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      b.op(swap, t + 4, t + 5 + 0.1 * (r ^ 1), r ^ 1, 2 * i, 64);
      const int other = (((r + 1) ^ 1) + ranks - 1) % ranks;
      b.op(swap, t + 6 + 0.1 * r, t + 8, other, 2 * i + 1, 64);
    }
  }
  return b.build();
}

// A random MPI run (`seed`): 3 to 7 ranks, three rounds. Each round every rank works a random time, then
// makes the round's 1 to 4 calls, the same for every rank, each chosen at random among a ring of
// MPI_Send and MPI_Recv, an MPI_Sendrecv with the rank's pair, MPI_Allreduce, MPI_Bcast and
// MPI_Reduce from a random root and MPI_Barrier; but each rank skips each call with a chance of 1 in
// 6, and takes a random time in it. Messages pair up as their channels' counts fall, collectives by
// each rank's count of them: unmatched sends and receives, incomplete instances, waits and cycles.
inline analysis::TraceRun random_mpi_run(TraceRunBuilder& b, std::uint32_t seed) {
  SeededRandom run{seed * 0xD1B54A32D192ED03ull + 3};
  const int ranks = 3 + static_cast<int>(run(5));
  std::uint32_t plan[3][4], calls[3], roots[3][4];
  for (int i = 0; i < 3; ++i) {
    calls[i] = 1 + run(4);
    for (int c = 0; c < 4; ++c) plan[i][c] = run(6), roots[i][c] = run(static_cast<std::uint32_t>(ranks));
  }
  for (int r = 0; r < ranks; ++r) {
    SeededRandom next{run(1u << 30) + 11u};
    b.rank(r, static_cast<std::uint32_t>(ranks));
    const auto compute = b.site(SiteKind::user, "compute", "random.c", 2);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "random.c", 3);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "random.c", 4);
    const auto swap = b.site(SiteKind::mpi_sendrecv, "MPI_Sendrecv", "random.c", 5);
    const auto allreduce = b.site(SiteKind::mpi_reduction, "MPI_Allreduce", "random.c", 6);
    const auto bcast = b.site(SiteKind::mpi_broadcast, "MPI_Bcast", "random.c", 7);
    const auto reduce = b.site(SiteKind::mpi_reduction, "MPI_Reduce", "random.c", 8);
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier", "random.c", 9);
    std::int64_t collectives = 0;
    for (int i = 0; i < 3; ++i) {
      const double t = 1 + 20.0 * i, work = 1 + 0.5 * next(8);
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      double at_ms = t + work;
      for (std::uint32_t c = 0; c < calls[i]; ++c) {
        const double begin = at_ms + 0.1 * next(10), end = begin + 0.3 + 0.2 * next(10);
        at_ms = end + 0.1;
        if (next(6) == 0) continue;  // this rank skips it
        const std::int64_t tag = 10 * i + c;
        switch (plan[i][c]) {
          case 0:
            b.op(send, begin, begin + 0.1, (r + 1) % ranks, tag, 8u << next(16))
                .op(recv, begin + 0.1, end, (r + ranks - 1) % ranks, tag, 64);
            break;
          case 1:
            if ((r ^ 1) < ranks) b.op(swap, begin, end, r ^ 1, tag, 512);
            break;
          case 2:
            b.op(allreduce, begin, end, -1, collectives++, 64);
            break;
          case 3:
            b.op(bcast, begin, end, roots[i][c], collectives++, 4096);
            break;
          case 4:
            b.op(reduce, begin, end, roots[i][c], collectives++, 64);
            break;
          default:
            b.op(barrier, begin, end, -1, collectives++, 0);
        }
      }
    }
    if (next(3) == 0) b.correct_clock(r, -0.5 * next(4));
  }
  return b.build();
}

// A random hybrid run (`seed`): 2 to 5 ranks of 2 threads, three rounds. Each round every rank's
// master works a random time, makes the round's MPI calls (a ring of MPI_Send and MPI_Recv, an
// MPI_Allreduce, an MPI_Bcast from a random root, each skipped by a rank at random), then runs a
// parallel region on both threads in which each thread takes a lock 0 to 2 times and passes the
// region's 1 to 3 barriers (a thread skips one at random); one random rank switches recording off for
// a while in one round. The OpenMP barriers' hubs, the locks' hand-overs and the phases of parts
// none of whose ranks switched, with MPI links across the cuts.
inline analysis::TraceRun random_hybrid_run(TraceRunBuilder& b, std::uint32_t seed) {
  SeededRandom run{seed * 0xA24BAED4963EE407ull + 5};
  const int ranks = 2 + static_cast<int>(run(4));
  std::uint32_t plan[3], barriers[3];
  for (int i = 0; i < 3; ++i) plan[i] = run(8), barriers[i] = 1 + run(3);
  const std::uint32_t bcast_root = run(static_cast<std::uint32_t>(ranks));
  const int pausing = static_cast<int>(run(static_cast<std::uint32_t>(ranks))),
            paused_round = static_cast<int>(run(3));
  for (int r = 0; r < ranks; ++r) {
    SeededRandom next{run(1u << 30) + 13u};
    b.rank(r, static_cast<std::uint32_t>(ranks));
    const auto compute = b.site(SiteKind::user, "compute", "hybrid.c", 2);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "hybrid.c", 3);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "hybrid.c", 4);
    const auto allreduce = b.site(SiteKind::mpi_reduction, "MPI_Allreduce", "hybrid.c", 5);
    const auto bcast = b.site(SiteKind::mpi_broadcast, "MPI_Bcast", "hybrid.c", 6);
    const auto region = b.site(SiteKind::omp_parallel, "parallel", "hybrid.c", 7);
    const auto lock = b.site(SiteKind::omp_lock, "omp_set_lock", "hybrid.c", 8);
    const auto barrier = b.site(SiteKind::omp_barrier, "omp barrier", "hybrid.c", 9);
    std::int64_t collectives = 0;
    for (int i = 0; i < 3; ++i) {
      const double t = 1 + 40.0 * i, work = 1 + 0.5 * next(8);
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      double at_ms = t + work;
      if ((plan[i] & 1) && next(6) != 0)
        b.op(send, at_ms, at_ms + 0.1, (r + 1) % ranks, i, 64)
            .op(recv, at_ms + 0.1, at_ms + 0.5 + 0.1 * next(10), (r + ranks - 1) % ranks, i, 64);
      at_ms += 2;
      if ((plan[i] & 2) && next(6) != 0)
        b.op(allreduce, at_ms + 0.1 * next(5), at_ms + 1, -1, collectives++, 8);
      at_ms += 2;
      if ((plan[i] & 4) && next(6) != 0)
        b.op(bcast, at_ms + 0.1 * next(5), at_ms + 1, bcast_root, collectives++, 8);
      at_ms += 2;
      if (r == pausing && i == paused_round)
        b.event(at(TraceEventKind::recording_off, at_ms)).event(at(TraceEventKind::recording_on, at_ms + 1));
      at_ms += 2;
      const std::int64_t instance = 100 * (i + 1);
      for (std::uint32_t thread = 0; thread < 2; ++thread)
        b.event(at(TraceEventKind::enter, at_ms + 0.1 * thread, region), thread);
      for (std::uint32_t thread = 0; thread < 2; ++thread) {
        double th = at_ms + 0.5 + 0.3 * thread;
        for (std::uint32_t l = next(3); l > 0; --l, th += 1.2)
          b.op(lock, th + 0.1 * next(4), th + 1, -1, 7, 0, thread, false);
        for (std::uint32_t k = 0; k < barriers[i]; ++k, th += 2) {
          if (next(7) == 0) continue;  // this thread skips it
          b.op(barrier, th + 0.1 * next(5), th + 1.5, -1, instance, 0, thread, false);
        }
      }
      for (std::uint32_t thread = 0; thread < 2; ++thread)
        b.event(at(TraceEventKind::leave, at_ms + 12, region), thread);
    }
    if (next(3) == 0) b.correct_clock(r, -0.5 * next(4));
  }
  return b.build();
}

// A random OpenSHMEM run (`seed`): 3 to 7 PEs, three rounds. Each round every PE works a random time,
// then makes the round's 0 to 3 calls, the same for every PE, each chosen at random among
// shmem_barrier_all, a shmem_barrier over the even PEs (on an even PE), a broadcast over all PEs
// from a random root (some outside the set), a reduction over the lower half (on a PE of it), a
// collect without its set and a put into the next PE followed by a wait_until; but each PE skips
// each call with a chance of 1 in 5. Some PEs call a shmem_barrier_all before their shmem_init
// (outside the analysis's window). The calls pair up as their counts fall: instances of members that
// called them together and of members that did not, untraced members, hubs whose first members are
// outside the window, cycles.
inline analysis::TraceRun random_shmem_run(TraceRunBuilder& b, std::uint32_t seed) {
  SeededRandom run{seed * 0x9E3779B97F4A7C15ull + 1};
  const int pes = 3 + static_cast<int>(run(5));
  std::uint32_t plan[3][3], calls[3];  // the rounds' calls, every PE's
  for (int i = 0; i < 3; ++i) {
    calls[i] = run(4);
    for (std::uint32_t& kind : plan[i]) kind = run(6);
  }
  const std::uint32_t root = run(static_cast<std::uint32_t>(pes) + 1);
  const std::int64_t evens = format::shmem_active_set_match(0, 1, (pes + 1) / 2);
  const std::int64_t all = format::shmem_active_set_match(0, 0, pes);
  const std::int64_t lower = format::shmem_active_set_match(0, 0, pes / 2 + 1);
  for (int r = 0; r < pes; ++r) {
    SeededRandom next{run(1u << 30) + 7u};
    b.rank(r, static_cast<std::uint32_t>(pes));
    const auto init = b.site(SiteKind::shmem_management, "shmem_init", "random.c", 1);
    const auto compute = b.site(SiteKind::user, "compute", "random.c", 2);
    const auto barrier_all = b.site(SiteKind::shmem_barrier, "shmem_barrier_all", "random.c", 3);
    const auto barrier = b.site(SiteKind::shmem_barrier, "shmem_barrier", "random.c", 4);
    const auto broadcast = b.site(SiteKind::shmem_broadcast, "shmem_broadcast64", "random.c", 5);
    const auto reduce = b.site(SiteKind::shmem_reduction, "shmem_int_sum_to_all", "random.c", 6);
    const auto collect = b.site(SiteKind::shmem_gather_scatter, "shmem_collect64", "random.c", 7);
    const auto put = b.site(SiteKind::shmem_put, "shmem_putmem", "random.c", 8);
    const auto wait = b.site(SiteKind::shmem_point_sync, "shmem_int_wait_until", "random.c", 9);
    if (next(4) == 0) b.op(barrier_all, 0.1, 0.2 + 0.1 * next(3), -1, 0, 0, 0, false);  // before init
    b.op(init, 0.5, 1, -1, 0, 0, 0, false);
    for (int i = 0; i < 3; ++i) {
      const double t = 2 + 20.0 * i, work = 1 + 0.5 * next(8);
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + work, compute));
      double at_ms = t + work;
      for (std::uint32_t c = 0; c < calls[i]; ++c) {
        const double begin = at_ms + 0.1 * next(10), end = begin + 0.5 + 0.2 * next(10);
        at_ms = end;
        if (next(5) == 0) continue;  // this PE skips it
        switch (plan[i][c]) {
          case 0:
            b.op(barrier_all, begin, end, -1, 0, 0, 0, false);
            break;
          case 1:
            if (r % 2 == 0) b.op(barrier, begin, end, -1, evens, 0, 0, false);
            break;
          case 2:
            b.op(broadcast, begin, end, root, all, 64, 0, false);
            break;
          case 3:
            if (r <= pes / 2) b.op(reduce, begin, end, -1, lower, 4, 0, false);
            break;
          case 4:
            b.op(collect, begin, end, -1, 0, 8, 0, false);
            break;
          default:
            b.op(put, begin, begin + 0.1, (r + 1) % pes, 0, 256, 0, false)
                .op(wait, begin + 0.1, end, -1, 0, 0, 0, false);
        }
      }
    }
    if (next(3) == 0) b.correct_clock(r, -0.5 * next(4));
  }
  return b.build();
}

}  // namespace parperf::test
