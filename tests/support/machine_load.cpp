#include "support/machine_load.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace parperf::test {
namespace {

double monotonic_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// CPU seconds all processes spent since boot: the first line of /proc/stat, in clock ticks
// (user nice system idle iowait irq softirq steal ...; all but idle and iowait are busy).
double machine_busy_seconds() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq) || cpu != "cpu") return 0;
  in >> steal;
  return (user + nice + system + irq + softirq + steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double cpu_seconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double own_cpu_seconds() { return cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN); }

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one_minute = -1;
  in >> one_minute;
  return one_minute;
}

}  // namespace

MachineLoad::MachineLoad()
    : start_wall_(monotonic_seconds()), start_busy_(machine_busy_seconds()), start_own_(own_cpu_seconds()) {}

std::string MachineLoad::describe() const {
  const double wall = monotonic_seconds() - start_wall_;
  const double own = (own_cpu_seconds() - start_own_) / wall;
  const bool known = start_busy_ > 0;
  const double others = known ? std::max(0.0, (machine_busy_seconds() - start_busy_) / wall - own) : 0;
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const double load = load_average();
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << "the machine was "
      << (others >= 0.2 || load > static_cast<double>(cores) ? "busy" : "idle") << ": " << cores
      << " cores, load average " << load << "; while the test ran (" << wall << " s)";
  if (known) out << " other processes kept " << others << " cores busy,";
  out << " the test and its programs " << own;
  return out.str();
}

}  // namespace parperf::test
