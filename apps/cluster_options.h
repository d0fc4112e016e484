#pragma once
// The flags of the MPI front end (`mpirun -n N layoutopt tune|optimize`), shared by both
// commands; built only with MPI (mpi/).

#include <CLI/CLI.hpp>

#include "layoutopt/mpi/mpi_tune.h"

namespace layoutopt::apps {

void add_cluster_options(CLI::App& command, mpi::ClusterOptions& cluster);

}  // namespace layoutopt::apps
