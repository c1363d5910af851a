#include "runtime/gasp/upc_events.hpp"

#include <cstddef>

#include "parperf/gasp.h"
#include "parperf/parperf.h"

namespace parperf::gasp {
namespace {

using K = format::SiteKind;

constexpr EventMapping op(K kind, const char* name, Bytes bytes = Bytes::none, bool waits = false) {
  return EventMapping{Action::operation, kind, name, bytes, waits};
}

// Indexed by tag. A strict shared access is a put or get like a relaxed one: the fence it implies
// is the runtime's, and GASP reports it apart (GASP_UPC_FENCE) when it does at all.
constexpr EventMapping kUpcEvents[] = {
    {},                                                   // 0: GASP_UPC_EVT_NONE
    {Action::function, K::user, "", Bytes::none, false},  // GASP_C_FUNC
    {},                                                   // GASP_C_MALLOC
    {},                                                   // GASP_C_REALLOC
    {},                                                   // GASP_C_FREE
    op(K::upc_management, "upc exit"),                    // GASP_UPC_COLLECTIVE_EXIT
    {Action::global_exit, K::upc_management, "upc_global_exit", Bytes::none, false},  // NONCOLLECTIVE_EXIT
    op(K::upc_notify, "upc_notify"),                                                  // GASP_UPC_NOTIFY
    op(K::upc_wait, "upc_wait", Bytes::none, true),                                   // GASP_UPC_WAIT
    op(K::upc_barrier, "upc_barrier", Bytes::none, true),                             // GASP_UPC_BARRIER
    op(K::upc_fence, "upc_fence"),                                                    // GASP_UPC_FENCE
    {Action::interval, K::parallel_loop, "upc_forall", Bytes::none, false},           // GASP_UPC_FORALL
    op(K::upc_management, "upc_global_alloc"),                                        // GASP_UPC_GLOBAL_ALLOC
    op(K::upc_management, "upc_all_alloc"),                                           // GASP_UPC_ALL_ALLOC
    op(K::upc_management, "upc_alloc"),                                               // GASP_UPC_ALLOC
    op(K::upc_management, "upc_free"),                                                // GASP_UPC_FREE
    op(K::upc_management, "upc_global_lock_alloc"),                      // GASP_UPC_GLOBAL_LOCK_ALLOC
    op(K::upc_management, "upc_all_lock_alloc"),                         // GASP_UPC_ALL_LOCK_ALLOC
    op(K::upc_management, "upc_lock_free"),                              // GASP_UPC_LOCK_FREE
    op(K::upc_lock, "upc_lock", Bytes::none, true),                      // GASP_UPC_LOCK
    op(K::upc_lock, "upc_lock_attempt"),                                 // GASP_UPC_LOCK_ATTEMPT
    op(K::upc_unlock, "upc_unlock"),                                     // GASP_UPC_UNLOCK
    op(K::upc_memcpy, "upc_memcpy", Bytes::mem),                         // GASP_UPC_MEMCPY
    op(K::upc_get, "upc_memget", Bytes::mem),                            // GASP_UPC_MEMGET
    op(K::upc_put, "upc_memput", Bytes::mem),                            // GASP_UPC_MEMPUT
    op(K::upc_put, "upc_memset", Bytes::memset),                         // GASP_UPC_MEMSET
    op(K::upc_get, "shared read", Bytes::put_get),                       // GASP_UPC_GET
    op(K::upc_put, "shared write", Bytes::put_get),                      // GASP_UPC_PUT
    op(K::upc_get, "non-blocking get", Bytes::put_get),                  // GASP_UPC_NB_GET_INIT
    op(K::upc_nb_sync, "non-blocking get data"),                         // GASP_UPC_NB_GET_DATA
    op(K::upc_put, "non-blocking put", Bytes::put_get),                  // GASP_UPC_NB_PUT_INIT
    op(K::upc_nb_sync, "non-blocking put data"),                         // GASP_UPC_NB_PUT_DATA
    op(K::upc_nb_sync, "non-blocking sync"),                             // GASP_UPC_NB_SYNC
    {},                                                                  // GASP_UPC_CACHE_MISS
    {},                                                                  // GASP_UPC_CACHE_HIT
    {},                                                                  // GASP_UPC_CACHE_INVALIDATE
    op(K::upc_broadcast, "upc_all_broadcast", Bytes::collective),        // GASP_UPC_ALL_BROADCAST
    op(K::upc_gather_scatter, "upc_all_scatter", Bytes::collective),     // GASP_UPC_ALL_SCATTER
    op(K::upc_gather_scatter, "upc_all_gather", Bytes::collective),      // GASP_UPC_ALL_GATHER
    op(K::upc_gather_scatter, "upc_all_gather_all", Bytes::collective),  // GASP_UPC_ALL_GATHER_ALL
    op(K::upc_all_to_all, "upc_all_exchange", Bytes::collective),        // GASP_UPC_ALL_EXCHANGE
    op(K::upc_all_to_all, "upc_all_permute", Bytes::permute),            // GASP_UPC_ALL_PERMUTE
    op(K::upc_reduction, "upc_all_reduce", Bytes::reduce),               // GASP_UPC_ALL_REDUCE
    op(K::upc_reduction, "upc_all_prefix_reduce", Bytes::reduce),        // GASP_UPC_ALL_PREFIX_REDUCE
};
static_assert(sizeof kUpcEvents / sizeof kUpcEvents[0] == GASP_UPC_ALL_PREFIX_REDUCE + 1,
              "one row per UPC tag of gasp.h");
static_assert(GASP_C_FUNC == 1 && GASP_UPC_FORALL == 11 && GASP_UPC_PUT == 27 && GASP_UPC_NB_SYNC == 32 &&
                  GASP_UPC_ALL_BROADCAST == 36,
              "the table's rows follow gasp.h's numbering");

// The size of one element of a reduction, by the specification's type enumeration.
std::size_t element_size(int type) noexcept {
  switch (type) {
    case GASP_UPC_REDUCTION_C:
    case GASP_UPC_REDUCTION_UC:
      return sizeof(char);
    case GASP_UPC_REDUCTION_S:
    case GASP_UPC_REDUCTION_US:
      return sizeof(short);
    case GASP_UPC_REDUCTION_I:
    case GASP_UPC_REDUCTION_UI:
      return sizeof(int);
    case GASP_UPC_REDUCTION_L:
    case GASP_UPC_REDUCTION_UL:
      return sizeof(long);
    case GASP_UPC_REDUCTION_F:
      return sizeof(float);
    case GASP_UPC_REDUCTION_D:
      return sizeof(double);
    case GASP_UPC_REDUCTION_LD:
      return sizeof(long double);
    default:
      return 0;  // not a type of the specification: the bytes are unknown
  }
}

}  // namespace

const EventMapping& upc_event(unsigned tag) noexcept {
  static constexpr EventMapping kNone{};
  return tag < sizeof kUpcEvents / sizeof kUpcEvents[0] ? kUpcEvents[tag] : kNone;
}

std::uint64_t bytes_of(Bytes how, va_list* args) noexcept {
  switch (how) {
    case Bytes::none:
      return 0;
    case Bytes::put_get:
      (void)va_arg(*args, int);
      (void)va_arg(*args, void*);
      (void)va_arg(*args, void*);
      return va_arg(*args, std::size_t);
    case Bytes::mem:
      (void)va_arg(*args, void*);
      (void)va_arg(*args, void*);
      return va_arg(*args, std::size_t);
    case Bytes::memset:
      (void)va_arg(*args, void*);
      (void)va_arg(*args, int);
      return va_arg(*args, std::size_t);
    case Bytes::collective:
      (void)va_arg(*args, void*);
      (void)va_arg(*args, void*);
      return va_arg(*args, std::size_t);
    case Bytes::permute:
      (void)va_arg(*args, void*);
      (void)va_arg(*args, void*);
      (void)va_arg(*args, void*);
      return va_arg(*args, std::size_t);
    case Bytes::reduce: {
      (void)va_arg(*args, void*);
      (void)va_arg(*args, void*);
      (void)va_arg(*args, int);
      const std::size_t elements = va_arg(*args, std::size_t);
      (void)va_arg(*args, std::size_t);
      (void)va_arg(*args, void*);
      (void)va_arg(*args, int);
      const int type = va_arg(*args, int);  // an enum is passed as an int
      return elements * element_size(type);
    }
  }
  return 0;
}

}  // namespace parperf::gasp
