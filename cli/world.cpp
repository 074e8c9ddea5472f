// process_world() (cli/command.h): the World of nardy-full, from the launcher's environment.
#include <memory>

#include "cli/command.h"
#include "selfplay/distributed/world_env.h"

namespace nardy::cli {

namespace {

std::unique_ptr<World> checked_world() {
  std::unique_ptr<World> world = make_world(world_env_from_environment());
  require_same_command(*world, command_arguments());
  return world;
}

}  // namespace

World& process_world() {
  static std::unique_ptr<World> world = checked_world();
  return *world;
}

}  // namespace nardy::cli
