// Helpers shared by the subcommands and by both front ends (nardy, nardy-full).
#include <fstream>
#include <iostream>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "cli/command.h"

namespace nardy::cli {

CLI::Option* add_threads_option(CLI::App& cmd, int& threads, const std::string& help,
                                int max_threads) {
  return cmd.add_option("--threads", threads, help)
      ->capture_default_str()
      ->check(CLI::Range(1, max_threads));
}

CLI::Option* add_seed_option(CLI::App& cmd, uint64_t& seed, const std::string& help) {
  return cmd.add_option("--seed", seed, help)->capture_default_str();
}

CLI::Option* add_json_option(CLI::App& cmd, std::string& path, const std::string& help) {
  return cmd.add_option("--json", path, help)->type_name("FILE");
}

void add_rule_option(CLI::App& cmd, std::vector<std::string>& assignments) {
  std::string help = "Rule variant KEY=VALUE (repeatable). Keys and values:";
  for (const auto& k : Rules::keys()) {
    help += "\n  " + k + ": ";
    auto vals = Rules::values_of(k);
    for (size_t i = 0; i < vals.size(); ++i)
      help += (i ? " | " : "") + vals[i] + (i == 0 ? " (default)" : "");
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

PosDiceArgs parse_pos_dice_args(const std::string& cmd, const std::vector<std::string>& args) {
  if (args.size() != 3 && args.size() != 4)
    throw Error(cmd + ": expected POS D1 D2, got " + std::to_string(args.size()) + " arguments");
  const size_t npos = args.size() - 2;
  PosDiceArgs out;
  out.pos = parse_pos(join_pos_args(args, npos));
  try {
    out.dice = make_dice(parse_die(args[npos]), parse_die(args[npos + 1]));
  } catch (const Error& e) {
    throw Error(cmd + ": " + e.what());
  }
  return out;
}

void write_output_file(const std::string& cmd, const std::string& kind, const std::string& path,
                       const std::string& text) {
  std::ofstream f(path);
  if (!(f << text)) throw Error(cmd + ": cannot write " + kind + " file '" + path + "'");
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
