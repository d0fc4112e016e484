#include "cluster_options.h"

#include "cli_common.h"

namespace layoutopt::apps {

void add_cluster_options(CLI::App& command, mpi::ClusterOptions& cluster) {
  command.add_flag("--mpi-allow-shared-host", cluster.hosts.allow_shared_host,
                   "under mpirun: let ranks share a host (testing only: their timings disturb each other)");
  command.add_option("--mpi-peak-tolerance", cluster.hosts.peak_tolerance,
                     "under mpirun: largest relative FMA-peak difference between ranks")
      ->check(positive_number())
      ->capture_default_str();
  command.add_option("--mpi-heartbeat-timeout", cluster.heartbeat_timeout_s,
                     "under mpirun: seconds a measuring rank may stay silent before its config goes to another")
      ->check(positive_number())
      ->capture_default_str();
}

}  // namespace layoutopt::apps
