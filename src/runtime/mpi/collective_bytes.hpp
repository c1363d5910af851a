// The bytes a collective call moves for this rank, the figure finish_collective() records: what it
// sends plus what it receives, as its arguments say (not what the algorithm MPI picks moves).
//
// - Counts given once for all peers are multiplied by the number of peers: the communicator's size
//   (the remote group's for an intercommunicator) or a neighbourhood collective's degree. Counts
//   given per peer (the v- and w-variants) are summed over the peers.
// - Arguments MPI ignores are never read, since they may be garbage: the send arguments with
//   MPI_IN_PLACE, the root's arguments on the other ranks. With MPI_IN_PLACE the rank's
//   contribution lies in the receive buffer: it still counts as sent where it travels (Allgather,
//   Alltoall) and not at all where it stays (the root's own block of a Gather or Scatter).
// - Reductions name one count for both directions: a rank sends it and receives it (the root of a
//   Reduce only receives).
//
// The roles of a rooted collective on an intercommunicator follow MPI: root MPI_ROOT receives (or
// sends) everything, MPI_PROC_NULL takes no part, the remote group sends (or receives) its share.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace parperf::mpi::collective_bytes {

// The datatypes of an Alltoallw: C handles, or Fortran handles converted one at a time.
class DatatypeList {
 public:
  static DatatypeList c(const MPI_Datatype* types) noexcept { return DatatypeList(types, nullptr); }
  static DatatypeList fortran(const MPI_Fint* types) noexcept { return DatatypeList(nullptr, types); }
  MPI_Datatype operator[](int i) const noexcept { return c_ != nullptr ? c_[i] : PMPI_Type_f2c(fortran_[i]); }

 private:
  DatatypeList(const MPI_Datatype* c, const MPI_Fint* fortran) noexcept : c_(c), fortran_(fortran) {}
  const MPI_Datatype* c_;
  const MPI_Fint* fortran_;
};

std::uint64_t bcast(int count, MPI_Datatype type) noexcept;
std::uint64_t gather(bool send_in_place, int send_count, MPI_Datatype send_type, int recv_count,
                     MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept;
std::uint64_t gatherv(bool send_in_place, int send_count, MPI_Datatype send_type, const int* recv_counts,
                      MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept;
std::uint64_t scatter(int send_count, MPI_Datatype send_type, bool recv_in_place, int recv_count,
                      MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept;
std::uint64_t scatterv(const int* send_counts, MPI_Datatype send_type, bool recv_in_place, int recv_count,
                       MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept;
std::uint64_t allgather(bool send_in_place, int send_count, MPI_Datatype send_type, int recv_count,
                        MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t allgatherv(bool send_in_place, int send_count, MPI_Datatype send_type, const int* recv_counts,
                         MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t alltoall(bool send_in_place, int send_count, MPI_Datatype send_type, int recv_count,
                       MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t alltoallv(bool send_in_place, const int* send_counts, MPI_Datatype send_type,
                        const int* recv_counts, MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t alltoallw(bool send_in_place, const int* send_counts, DatatypeList send_types,
                        const int* recv_counts, DatatypeList recv_types, MPI_Comm comm) noexcept;
std::uint64_t reduce(int count, MPI_Datatype type, int root, MPI_Comm comm) noexcept;
// Allreduce, Scan, Exscan.
std::uint64_t allreduce(int count, MPI_Datatype type) noexcept;
std::uint64_t reduce_scatter(const int* recv_counts, MPI_Datatype type, MPI_Comm comm) noexcept;
std::uint64_t reduce_scatter_block(int recv_count, MPI_Datatype type, MPI_Comm comm) noexcept;
std::uint64_t neighbor_allgather(int send_count, MPI_Datatype send_type, int recv_count,
                                 MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t neighbor_allgatherv(int send_count, MPI_Datatype send_type, const int* recv_counts,
                                  MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t neighbor_alltoall(int send_count, MPI_Datatype send_type, int recv_count,
                                MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t neighbor_alltoallv(const int* send_counts, MPI_Datatype send_type, const int* recv_counts,
                                 MPI_Datatype recv_type, MPI_Comm comm) noexcept;
std::uint64_t neighbor_alltoallw(const int* send_counts, DatatypeList send_types, const int* recv_counts,
                                 DatatypeList recv_types, MPI_Comm comm) noexcept;

}  // namespace parperf::mpi::collective_bytes
