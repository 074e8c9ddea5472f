// `nardy play [--agent SPEC] [--to N] [--colour white|black] [--dice random|manual] [--resume
// FILE]`: a game or match against an agent in the terminal. The session logic is the library's
// (selfplay/play_session/play_session.h); this file reads lines, prints and colours the board.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "cli/command.h"
#include "selfplay/evaluation/review.h"
#include "core/error.h"
#include "core/file_error.h"
#include "core/file_io.h"
#include "core/printable.h"
#include "selfplay/play_session/play_session.h"

namespace nardy::cli {

namespace {

// `s` without the spaces, tabs and carriage returns around it.
std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Colour when stdout is a terminal that supports it (and NO_COLOR is unset).
bool use_colour() {
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr && term != nullptr &&
         std::string(term) != "dumb";
}

// White's checkers (W..) bold white on the board, Black's (B..) bold red.
std::string colour_board(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool token = (c == 'W' || c == 'B') && i + 1 < text.size() &&
                       std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                       (i == 0 || text[i - 1] == ' ');
    if (!token) {
      out += c;
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    out += c == 'W' ? "\x1b[1;97m" : "\x1b[1;31m";
    out += text.substr(i, j - i) + "\x1b[0m";
    i = j - 1;
  }
  return out;
}

}  // namespace

void add_play_command(CLI::App& app) {
  struct Args {
    std::string agent, colour = "white", dice = "random", resume, record;
    int target = 1;
    uint64_t seed = 0;
    bool seed_given = false;
    std::vector<std::string> rules;
    std::string tutor;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "play",
      "Play a game or a match against an agent in the terminal. Enter moves in the documented\n"
      "notation (any equivalent way of writing them); commands: legal, hint, undo, save FILE,\n"
      "board, help, quit. End of input ends the session. At the end of the match: save FILE,\n"
      "review (the whole match reviewed at once), or Enter to leave.");
  add_agent_option(*cmd, args->agent, "The opponent's spec");
  cmd->add_option("--to", args->target, "Points to win the match (1: one game)")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxMatchTarget));
  cmd->add_option("--colour,--color", args->colour, "Your colour in the first game")
      ->capture_default_str()
      ->check(CLI::IsMember({"white", "black"}));
  cmd->add_option("--dice", args->dice, "random: the program rolls; manual: you enter every roll")
      ->capture_default_str()
      ->check(CLI::IsMember({"random", "manual"}));
  cmd->add_option("--seed", args->seed, "Seed of the dice and the agent (default: from the clock)");
  cmd->add_option("--resume", args->resume, "Continue a saved match or game record");
  cmd->add_option("--record", args->record,
                  "Keep the match record in FILE, written after every turn (also after a quit)")
      ->type_name("FILE");
  cmd->add_option("--tutor", args->tutor,
                  "Warn before playing a move that loses more than THRESHOLD points of equity "
                  "(default 0.04) against the agent's best, and review the match at the end")
      ->expected(0, 1);
  add_rule_option(*cmd, args->rules);
  cmd->callback([args, cmd] {
    check_agent_available("play", *cmd, args->agent);
    PlaySessionOptions o;
    o.agent = args->agent;
    o.target = args->target;
    o.human_colour = args->colour == "white" ? Side::White : Side::Black;
    o.manual_dice = args->dice == "manual";
    o.seed = cmd->count("--seed") ? args->seed : static_cast<uint64_t>(time(nullptr));
    o.rules = rules_from(args->rules);
    if (!args->resume.empty()) {
      require_not_directory("play: cannot read record file", args->resume);
      std::ifstream f(args->resume);
      if (!f)
        throw file_error("play: cannot read record file", args->resume, open_failure_reason());
      std::stringstream ss;
      ss << f.rdbuf();
      o.resume_record = ss.str();
      o.resume_source = "record file " + quote_path(args->resume);
      if (o.resume_record.find_first_not_of(" \t\r\n") == std::string::npos)
        throw file_error("play: cannot resume from record file", args->resume,
                         "it is empty (no match or game record)");
    }
    if (cmd->count("--tutor")) {
      o.tutor_threshold = 0.04;
      if (!args->tutor.empty()) {
        try {
          size_t used = 0;
          o.tutor_threshold = std::stod(args->tutor, &used);
          if (used != args->tutor.size()) throw std::invalid_argument("trailing text");
        } catch (const std::exception&) {
          throw Error("play: --tutor " + quote(args->tutor) +
                      " is not a number of points (e.g. --tutor 0.08)");
        }
      }
    }
    PlaySession session(o);
    const bool colour = use_colour();
    auto show = [&](const std::string& text) {
      std::cout << (colour ? colour_board(text) : text) << std::flush;
    };
    // --record: the match record after every line (whole or not at all); a failure is shown
    // once per reason and the game goes on.
    std::string record_error;
    auto keep_record = [&] {
      if (args->record.empty()) return;
      try {
        write_file_atomic(args->record, session.record(), "match record");
        record_error.clear();
      } catch (const Error& e) {
        if (record_error != e.what()) std::cout << "error: " << e.what() << "\n";
        record_error = e.what();
      }
    };
    auto print_review = [&] {
      ReviewOptions ro;
      ro.seed = o.seed;
      std::cout << "\n" << review_games(review_input_of(session.match()), o.agent, ro).to_text();
    };
    show(session.start());
    keep_record();
    std::string line;
    while (!session.finished()) {
      std::cout << session.prompt() << std::flush;
      if (!std::getline(std::cin, line)) {
        std::cout << "\nend of input: leaving the game\n";
        break;
      }
      show(session.input(line));
      keep_record();
    }
    const bool played = !session.match().games().front().history().empty();
    if (o.tutor_threshold && played) {
      print_review();  // the tutor's end of the session: the review of what was played
    } else if (session.match().is_over()) {
      // The match is over: it can be saved and reviewed at once.
      if (!args->record.empty() && record_error.empty())
        std::cout << "The match record is in " << quote_path(args->record) << ".\n";
      std::cout << "Enter `save FILE` to save the match record, `review` to review the match, or "
                   "nothing to leave.\n";
      for (;;) {
        std::cout << "match over> " << std::flush;
        if (!std::getline(std::cin, line)) break;
        const std::string_view l = trim(line);
        if (l.starts_with("save ") && !trim(l.substr(5)).empty()) {
          const std::string file(trim(l.substr(5)));
          try {
            write_file_atomic(file, session.record(), "match record");
            std::cout << "saved the match record to " << quote_path(file) << "\n";
          } catch (const Error& e) {
            std::cout << "error: " << e.what() << "\n";
          }
        } else if (l == "review") {
          print_review();
        } else {
          break;
        }
      }
    }
  });
}

}  // namespace nardy::cli
