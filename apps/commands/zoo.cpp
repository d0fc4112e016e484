// `layoutopt zoo`: the built-in networks.

#include <iomanip>
#include <iostream>

#include "commands.h"
#include "layoutopt/graph/zoo/zoo.h"

namespace layoutopt::apps {

void add_zoo_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("zoo", "List the built-in networks (built in code, seeded random weights)");
  command->callback([] {
    std::cout << std::left << std::setw(18) << "name" << std::setw(8) << "input" << "description\n";
    for (const auto& entry : graph::zoo::entries())
      std::cout << std::setw(18) << entry.name << std::setw(8) << entry.image_size << entry.description << "\n";
  });
}

}  // namespace layoutopt::apps
