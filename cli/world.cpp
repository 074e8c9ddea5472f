// process_world() (cli/command.h): the World of nardy-full, from the launcher's environment.
#include <memory>

#include "cli/command.h"
#include "selfplay/distributed/world_env.h"

namespace nardy::cli {

World& process_world() {
  static std::unique_ptr<World> world = make_world(world_env_from_environment());
  return *world;
}

}  // namespace nardy::cli
