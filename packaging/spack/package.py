# Spack recipe of parperf, kept in step with the top-level CMakeLists.txt: the version of its
# project(), the options it passes (each an option() or cache variable of the CMake build) and the
# dependencies its find_package / pkg_check_modules calls need (tests/unit/check_spack_recipe.py
# checks the version and the options). Copy it into a Spack repository as
# packages/parperf/package.py.
from spack.package import *


class Parperf(CMakePackage):
    """Profiler for parallel programs (OpenMP, MPI, OpenSHMEM): where each interval of a program
    loses its time (productive work, insufficient parallelism, communication, idle time, load
    imbalance), event traces with wait states, the POP efficiency factors, memory locality."""

    # parperf has no public home yet: point these at the repository your site builds from.
    homepage = "https://parperf.invalid/"
    git = "https://parperf.invalid/parperf.git"

    version("0.1.0", tag="v0.1.0")

    variant("shmem", default=True, description="The OpenSHMEM collector (needs Open MPI's OSHMEM)")

    depends_on("cmake@3.25:", type="build")
    depends_on("ninja", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("python@3:", type="build")  # generates the MPI and OpenSHMEM wrappers
    depends_on("fmt")
    depends_on("nlohmann-json")
    depends_on("cli11")
    depends_on("zstd")
    depends_on("elfutils")  # libdw: symbols and line tables of sampled call paths
    depends_on("otf2")  # parperf export --otf2
    depends_on("librsvg")  # the PNG pictures of parperf locality
    depends_on("cairo")
    depends_on("mpi")
    depends_on("openmpi", when="+shmem")
    depends_on("llvm-openmp")  # omp-tools.h, and the libomp that parperf run preloads
    depends_on("googletest", type="test")

    generator("ninja")

    def cmake_args(self):
        openmp = self.spec["llvm-openmp"]
        return [
            self.define("PARPERF_WERROR", False),
            self.define("PARPERF_BUILD_TESTS", self.run_tests),
            self.define("PARPERF_BUILD_SCENARIOS", self.run_tests),
            self.define("PARPERF_BUILD_BENCH", False),
            self.define("PARPERF_OMPT_INCLUDE_DIR", openmp.prefix.include),
            self.define("PARPERF_LIBOMP", join_path(openmp.prefix.lib, "libomp.so")),
        ]
