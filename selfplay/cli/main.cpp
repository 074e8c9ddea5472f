// The `nardy` command-line tool: dispatches to one file per subcommand.
#include <iostream>

#include "core/error.h"
#include "selfplay/cli/command.h"
#include "selfplay/net_agent.h"

namespace nardy::cli {

void add_rule_option(CLI::App& cmd, std::vector<std::string>& assignments) {
  std::string help = "Rule variant KEY=VALUE (repeatable). Keys and values:";
  for (const auto& k : Rules::keys()) {
    help += "\n  " + k + ": ";
    auto vals = Rules::values_of(k);
    for (size_t i = 0; i < vals.size(); ++i) help += (i ? " | " : "") + vals[i] + (i == 0 ? " (default)" : "");
  }
  cmd.add_option("--rule", assignments, help)->type_name("KEY=VALUE");
}

Rules rules_from(const std::vector<std::string>& assignments) {
  Rules r;
  for (const auto& a : assignments) r.apply_assignment(a);
  return r;
}

std::string join_pos_args(const std::vector<std::string>& args, size_t n) {
  std::string s;
  for (size_t i = 0; i < n && i < args.size(); ++i) s += (i ? " " : "") + args[i];
  return s;
}

}  // namespace nardy::cli

int main(int argc, char** argv) {
  CLI::App app{
      "nardy — Long Nardy engine, self-play trainer and analysis tools.\n"
      "Positions are POS text: 24 comma-separated counts for points 1..24 (White positive,\n"
      "Black negative), a space, and w or b for the side to move (quote it as one argument)."};
  app.require_subcommand(1);
  nardy::register_net_agents();  // agent specs net:PATH... everywhere
  app.set_help_all_flag("--help-all", "Show help for every command");
  nardy::cli::add_legal_command(app);
  nardy::cli::add_show_command(app);
  nardy::cli::add_selfplay_command(app);
  nardy::cli::add_bench_command(app);
  nardy::cli::add_train_command(app);
  nardy::cli::add_eval_command(app);
  nardy::cli::add_analyze_command(app);
  nardy::cli::add_rollout_command(app);
  nardy::cli::add_tournament_command(app);
  nardy::cli::add_engine_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const nardy::Error& e) {
    std::cerr << "nardy: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "nardy: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
