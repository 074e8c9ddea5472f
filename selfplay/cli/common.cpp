// Helpers shared by the subcommands and by both front ends (nardy, nardy-full).
#include <iostream>

#include "core/error.h"
#include "selfplay/cli/command.h"

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

const char* kAppDescription =
    "nardy — Long Nardy engine, self-play trainer and analysis tools.\n"
    "Positions are POS text: 24 comma-separated counts for points 1..24 (White positive,\n"
    "Black negative), a space, and w or b for the side to move (quote it as one argument).";

int run_app(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const std::exception& e) {  // nardy::Error and anything else: message, status 2
    std::cerr << "nardy: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace nardy::cli
