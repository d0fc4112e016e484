#include "layoutopt/mpi/mpi_tune.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <iomanip>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "layoutopt/distributed/measurement_farm.h"
#include "layoutopt/distributed/work_bench.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "layoutopt/tuning/target.h"
#include "mpi_world.h"
#include "rank_transport.h"
#include "wire.h"

namespace layoutopt::mpi {

namespace {

// A measuring rank tells rank 0 it is alive this often (rank 0 gives it up after the timeout).
constexpr std::chrono::seconds heartbeat_interval{1};

std::vector<std::string> task_names(const std::vector<tuning::TuningTask>& tasks) {
  std::vector<std::string> names;
  for (const tuning::TuningTask& task : tasks) names.push_back(task.task_key().describe());
  return names;
}

// Rank 0 hears every rank's introduction and answers each with "" (go) or why the run is
// refused; every rank throws that reason, so all stop before anything is timed.
void agree_on_hosts(const MpiWorld& world, const RankIntroduction& own, const ClusterOptions& options) {
  if (world.rank() != 0) {
    world.send(0, Tag::facts, encode(own));
    const std::string verdict = world.receive(0).text;
    if (!verdict.empty()) throw std::runtime_error(verdict);
    return;
  }
  std::vector<distributed::HostFacts> facts{own.facts};
  std::optional<std::string> refusal;
  for (int rank = 1; rank < world.size(); ++rank) {
    const RankIntroduction introduction = decode_introduction(world.receive(rank).text);
    facts.push_back(introduction.facts);
    if (!refusal && introduction.tasks != own.tasks)
      refusal = "refusing to tune: rank " + std::to_string(rank) + " extracted " +
                std::to_string(introduction.tasks.size()) + " tasks, rank 0 " + std::to_string(own.tasks.size()) +
                " (not the same model or options)";
  }
  if (!refusal) refusal = distributed::host_mismatch(facts, options.hosts);
  for (int rank = 1; rank < world.size(); ++rank) world.send(rank, Tag::verdict, refusal.value_or(""));
  if (refusal) throw std::runtime_error(*refusal);
}

// Text of the stop message when a rank was lost: every rank then leaves without MPI_Finalize.
constexpr const char* lost_rank_stop = "a rank was lost";

// A rank other than 0: performs each assignment (in a thread, so that this one can send
// heartbeats meanwhile) and sends the result back, until rank 0 says stop.
void serve(MpiWorld& world, distributed::WorkBench& bench) {
  while (true) {
    const Message message = world.receive(0);
    if (message.tag == Tag::stop) {
      if (message.text == lost_rank_stop) world.skip_finalize();
      return;
    }
    if (message.tag != Tag::assignment) continue;
    const distributed::Assignment work = decode_assignment(message.text);
    std::future<distributed::WorkResult> measuring = std::async(std::launch::async, [&] { return bench.perform(work); });
    while (measuring.wait_for(heartbeat_interval) != std::future_status::ready) world.send(0, Tag::heartbeat, "");
    world.send(0, Tag::result, encode(work, measuring.get()));
  }
}

// Rank 0 tells every other rank to stop serving when it leaves, also by an exception, and
// whether a rank was lost (then no rank may wait for all in MPI_Finalize).
class StopWorkers {
 public:
  StopWorkers(MpiWorld& world, const distributed::FarmStatistics& statistics) : world_(world), statistics_(statistics) {}
  ~StopWorkers() {
    const bool lost = std::ranges::any_of(statistics_.lost, [](bool l) { return l; });
    for (int rank = 1; rank < world_.size(); ++rank) world_.send(rank, Tag::stop, lost ? lost_rank_stop : "");
    if (lost) world_.skip_finalize();
  }
  StopWorkers(const StopWorkers&) = delete;
  StopWorkers& operator=(const StopWorkers&) = delete;

 private:
  MpiWorld& world_;
  const distributed::FarmStatistics& statistics_;
};

void print_shares(const distributed::FarmStatistics& statistics) {
  std::cerr << "units measured by rank (configs or transform passes):";
  for (size_t rank = 0; rank < statistics.measured.size(); ++rank)
    std::cerr << " " << rank << ": " << statistics.measured[rank] << (statistics.lost[rank] ? " (lost)" : "");
  if (statistics.reissued > 0) std::cerr << "; " << statistics.reissued << " reissued after a rank was lost";
  std::cerr << std::fixed << std::setprecision(1) << "\nsearch " << statistics.search_s << " s; ranks idle "
            << statistics.idle_s << " rank-s; messaging " << statistics.messaging_s << " rank-s\n";
}

// Every rank: checks the hosts, then rank 0 runs `job` with a measurement farm over every
// rank (its own work bench in a thread) while the other ranks perform what they are sent.
// Configs and transforms are timed with `policy`, as on a single host.
void farm_out(const std::vector<tuning::TuningTask>& tasks, const timing::TimingPolicy& policy,
              const ClusterOptions& options, bool quiet, const std::function<void(distributed::MeasurementFarm&)>& job) {
  MpiWorld world;
  agree_on_hosts(world, {distributed::detect_host_facts(policy.threads), task_names(tasks)}, options);
  tuning::KernelMeasurer measurer(policy);
  distributed::WorkBench bench(tasks, measurer, policy, tuning::host_target(policy.threads));
  if (world.rank() != 0) return serve(world, bench);
  RankTransport transport(world, bench,
                          std::chrono::milliseconds(static_cast<int64_t>(options.heartbeat_timeout_s * 1e3)));
  distributed::MeasurementFarm farm(tasks, transport, 0);  // the search shares rank 0's CPUs with worker 0
  const StopWorkers stop(world, farm.statistics());
  job(farm);
  if (!quiet) print_shares(farm.statistics());
}

}  // namespace

bool launched_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

std::optional<pipeline::TuneReport> tune_model_mpi(const graph::Graph& graph, const pipeline::TuneRequest& request,
                                                   const ClusterOptions& options) {
  std::optional<pipeline::TuneReport> report;
  farm_out(pipeline::requested_tasks(graph, request), timing::cost_policy(request.threads, request.min_repeat_ms),
           options, request.quiet,
           [&](distributed::MeasurementFarm& farm) { report = pipeline::tune_model(graph, request, farm); });
  return report;
}

std::optional<pipeline::OptimizeReport> optimize_model_mpi(const graph::Graph& graph,
                                                           const pipeline::OptimizeRequest& request,
                                                           const ClusterOptions& options) {
  std::optional<pipeline::OptimizeReport> report;
  farm_out(tuning::extract_tasks(graph), timing::cost_policy(request.threads), options, request.quiet,
           [&](distributed::MeasurementFarm& farm) { report = pipeline::optimize_model(graph, request, {farm, farm}); });
  return report;
}

std::optional<pipeline::TransformTableReport> extend_transform_table_mpi(const graph::Graph& graph,
                                                                         const pipeline::TransformTableRequest& request,
                                                                         const ClusterOptions& options) {
  std::optional<pipeline::TransformTableReport> report;
  farm_out(tuning::extract_tasks(graph), pipeline::transform_policy(request), options, request.quiet,
           [&](distributed::MeasurementFarm& farm) { report = pipeline::extend_transform_table(graph, request, farm); });
  return report;
}

}  // namespace layoutopt::mpi
