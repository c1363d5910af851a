#include "runtime/mpi/collective_bytes.hpp"

#include "runtime/mpi/measure.hpp"

// The communicator queries below are local, constant-time calls in every MPI library; they run
// only while a call is measured.
namespace parperf::mpi::collective_bytes {
namespace {

using Bytes = std::uint64_t;

bool is_inter(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return inter != 0;
}

// The ranks a collective exchanges data with: the communicator's, or the remote group's.
int peers(MPI_Comm comm) {
  int size = 0;
  if (is_inter(comm)) {
    PMPI_Comm_remote_size(comm, &size);
  } else {
    PMPI_Comm_size(comm, &size);
  }
  return size;
}

int rank_in(MPI_Comm comm) {
  int rank = MPI_PROC_NULL;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}

// `count` elements of `type` for each of `n` peers. A zero count never queries the type, which
// the program may have left MPI_DATATYPE_NULL or unset.
Bytes times(int count, MPI_Datatype type, int n) {
  if (count <= 0 || n <= 0) return 0;
  return bytes_of(count, type) * static_cast<Bytes>(n);
}

// A neighbourhood collective's counts, one per neighbour (bytes_of(counts, type, comm) counts one
// per rank of the communicator).
Bytes sum(const int* counts, int n, MPI_Datatype type) {
  Bytes elements = 0;
  for (int i = 0; i < n; ++i) elements += counts[i] > 0 ? static_cast<Bytes>(counts[i]) : 0;
  return elements == 0 ? 0 : elements * bytes_of(1, type);
}

// The w-variants' counts, each with its own datatype.
Bytes sum(const int* counts, int n, DatatypeList types) {
  Bytes bytes = 0;
  for (int i = 0; i < n; ++i) {
    if (counts[i] > 0) bytes += bytes_of(counts[i], types[i]);
  }
  return bytes;
}

struct Roles {
  bool root = false;  // receives (Gather) or sends (Scatter) on behalf of all peers
  bool leaf = false;  // sends (Gather) or receives (Scatter) its own share
};

Roles roles_of(int root, MPI_Comm comm) {
  if (root == MPI_ROOT) return {.root = true, .leaf = false};
  if (root == MPI_PROC_NULL) return {};
  if (is_inter(comm)) return {.root = false, .leaf = true};
  return {.root = rank_in(comm) == root, .leaf = true};
}

struct Degrees {
  int in = 0;
  int out = 0;
};

// A neighbourhood collective exchanges data with the neighbours of the communicator's topology (a
// Cartesian one has two per dimension, MPI_PROC_NULL ones included).
Degrees degrees_of(MPI_Comm comm) {
  int topology = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &topology);
  Degrees degrees;
  if (topology == MPI_CART) {
    int dimensions = 0;
    PMPI_Cartdim_get(comm, &dimensions);
    degrees.in = degrees.out = 2 * dimensions;
  } else if (topology == MPI_GRAPH) {
    PMPI_Graph_neighbors_count(comm, rank_in(comm), &degrees.in);
    degrees.out = degrees.in;
  } else if (topology == MPI_DIST_GRAPH) {
    int weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &degrees.in, &degrees.out, &weighted);
  }
  return degrees;
}

}  // namespace

Bytes bcast(int count, MPI_Datatype type) noexcept { return times(count, type, 1); }

Bytes gather(bool send_in_place, int send_count, MPI_Datatype send_type, int recv_count,
             MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept {
  const Roles roles = roles_of(root, comm);
  Bytes bytes = 0;
  if (roles.leaf && !send_in_place) bytes += times(send_count, send_type, 1);
  if (roles.root) bytes += times(recv_count, recv_type, peers(comm));
  return bytes;
}

Bytes gatherv(bool send_in_place, int send_count, MPI_Datatype send_type, const int* recv_counts,
              MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept {
  const Roles roles = roles_of(root, comm);
  Bytes bytes = 0;
  if (roles.leaf && !send_in_place) bytes += times(send_count, send_type, 1);
  if (roles.root) bytes += bytes_of(recv_counts, recv_type, comm);
  return bytes;
}

Bytes scatter(int send_count, MPI_Datatype send_type, bool recv_in_place, int recv_count,
              MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept {
  const Roles roles = roles_of(root, comm);
  Bytes bytes = 0;
  if (roles.root) bytes += times(send_count, send_type, peers(comm));
  if (roles.leaf && !recv_in_place) bytes += times(recv_count, recv_type, 1);
  return bytes;
}

Bytes scatterv(const int* send_counts, MPI_Datatype send_type, bool recv_in_place, int recv_count,
               MPI_Datatype recv_type, int root, MPI_Comm comm) noexcept {
  const Roles roles = roles_of(root, comm);
  Bytes bytes = 0;
  if (roles.root) bytes += bytes_of(send_counts, send_type, comm);
  if (roles.leaf && !recv_in_place) bytes += times(recv_count, recv_type, 1);
  return bytes;
}

Bytes allgather(bool send_in_place, int send_count, MPI_Datatype send_type, int recv_count,
                MPI_Datatype recv_type, MPI_Comm comm) noexcept {
  const Bytes sent = send_in_place ? times(recv_count, recv_type, 1) : times(send_count, send_type, 1);
  return sent + times(recv_count, recv_type, peers(comm));
}

Bytes allgatherv(bool send_in_place, int send_count, MPI_Datatype send_type, const int* recv_counts,
                 MPI_Datatype recv_type, MPI_Comm comm) noexcept {
  // MPI_IN_PLACE is an intracommunicator's option: the rank's own block is its contribution.
  const Bytes sent =
      send_in_place ? times(recv_counts[rank_in(comm)], recv_type, 1) : times(send_count, send_type, 1);
  return sent + bytes_of(recv_counts, recv_type, comm);
}

Bytes alltoall(bool send_in_place, int send_count, MPI_Datatype send_type, int recv_count,
               MPI_Datatype recv_type, MPI_Comm comm) noexcept {
  const int n = peers(comm);
  const Bytes received = times(recv_count, recv_type, n);
  return received + (send_in_place ? received : times(send_count, send_type, n));
}

Bytes alltoallv(bool send_in_place, const int* send_counts, MPI_Datatype send_type, const int* recv_counts,
                MPI_Datatype recv_type, MPI_Comm comm) noexcept {
  const Bytes received = bytes_of(recv_counts, recv_type, comm);
  return received + (send_in_place ? received : bytes_of(send_counts, send_type, comm));
}

Bytes alltoallw(bool send_in_place, const int* send_counts, DatatypeList send_types, const int* recv_counts,
                DatatypeList recv_types, MPI_Comm comm) noexcept {
  const int n = peers(comm);
  const Bytes received = sum(recv_counts, n, recv_types);
  return received + (send_in_place ? received : sum(send_counts, n, send_types));
}

Bytes reduce(int count, MPI_Datatype type, int root, MPI_Comm comm) noexcept {
  // Every rank taking part moves the count once: the root receives it, the others send it.
  const Roles roles = roles_of(root, comm);
  return roles.root || roles.leaf ? times(count, type, 1) : 0;
}

Bytes allreduce(int count, MPI_Datatype type) noexcept { return 2 * times(count, type, 1); }

Bytes reduce_scatter(const int* recv_counts, MPI_Datatype type, MPI_Comm comm) noexcept {
  // On an intercommunicator the counts describe the other group's blocks; only the sent part is
  // counted there.
  const Bytes sent = bytes_of(recv_counts, type, comm);
  return sent + (is_inter(comm) ? 0 : times(recv_counts[rank_in(comm)], type, 1));
}

Bytes reduce_scatter_block(int recv_count, MPI_Datatype type, MPI_Comm comm) noexcept {
  return times(recv_count, type, peers(comm)) + times(recv_count, type, 1);
}

Bytes neighbor_allgather(int send_count, MPI_Datatype send_type, int recv_count, MPI_Datatype recv_type,
                         MPI_Comm comm) noexcept {
  const Degrees degrees = degrees_of(comm);
  return times(send_count, send_type, degrees.out) + times(recv_count, recv_type, degrees.in);
}

Bytes neighbor_allgatherv(int send_count, MPI_Datatype send_type, const int* recv_counts,
                          MPI_Datatype recv_type, MPI_Comm comm) noexcept {
  const Degrees degrees = degrees_of(comm);
  return times(send_count, send_type, degrees.out) + sum(recv_counts, degrees.in, recv_type);
}

Bytes neighbor_alltoall(int send_count, MPI_Datatype send_type, int recv_count, MPI_Datatype recv_type,
                        MPI_Comm comm) noexcept {
  const Degrees degrees = degrees_of(comm);
  return times(send_count, send_type, degrees.out) + times(recv_count, recv_type, degrees.in);
}

Bytes neighbor_alltoallv(const int* send_counts, MPI_Datatype send_type, const int* recv_counts,
                         MPI_Datatype recv_type, MPI_Comm comm) noexcept {
  const Degrees degrees = degrees_of(comm);
  return sum(send_counts, degrees.out, send_type) + sum(recv_counts, degrees.in, recv_type);
}

Bytes neighbor_alltoallw(const int* send_counts, DatatypeList send_types, const int* recv_counts,
                         DatatypeList recv_types, MPI_Comm comm) noexcept {
  const Degrees degrees = degrees_of(comm);
  return sum(send_counts, degrees.out, send_types) + sum(recv_counts, degrees.in, recv_types);
}

}  // namespace parperf::mpi::collective_bytes
