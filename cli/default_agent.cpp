// The agent of `analyze`, `engine`, `play` and `serve` when --agent is not given: the shipped
// model (selfplay/search/shipped_models.h). nardy-full only; the torch-free build has none of
// these commands.
#include "cli/command.h"
#include "core/error.h"
#include "selfplay/search/shipped_models.h"

namespace nardy::cli {

CLI::Option* add_agent_option(CLI::App& cmd, std::string& spec, const std::string& help) {
  spec = "default";
  return cmd
      .add_option("--agent", spec,
                  help + " (default: `default`, the shipped model " + std::string(kDefaultModel) +
                      " at 0-ply; e.g. heuristic, default:ply=1)")
      ->capture_default_str();
}

void check_agent_available(const std::string& cmd_name, const CLI::App& cmd,
                           const std::string& spec) {
  if (cmd.count("--agent") > 0 || spec != "default") return;
  try {
    (void)find_model(kDefaultModel);
  } catch (const Error& e) {
    throw Error(cmd_name + ": the default agent is the shipped model '" +
                std::string(kDefaultModel) + "', which is missing (" + e.what() +
                "); set NARDY_MODEL_DIR to the folder holding it, or choose an agent with "
                "--agent (e.g. --agent heuristic)");
  }
}

}  // namespace nardy::cli
