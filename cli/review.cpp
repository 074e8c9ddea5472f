// `nardy review RECORD [--agent SPEC] [--ply N | --rollouts N] [--trials N] [--json FILE]
// [--html FILE] [--lang CODE]`: every turn of a game or match record scored against the best move
// (selfplay/evaluation/review.h).
#include <iostream>

#include "cli/command.h"
#include "core/error.h"
#include "core/file_io.h"
#include "selfplay/evaluation/review.h"
#include "selfplay/evaluation/review_html.h"
#include "selfplay/evaluation/review_strings.h"

namespace nardy::cli {

void add_review_command(CLI::App& app) {
  struct Args {
    std::string record, agent, json, html, lang = "en";
    int ply = -1;
    int64_t trials = 360;
    int64_t rollouts = 0;
    int threads = 1;
    int alternatives = 5;
    uint64_t seed = 1;
    std::vector<double> thresholds;
    std::vector<std::string> rules;
    bool no_luck = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "review",
      "Review a game or match record: every turn of both players against the best move, errors\n"
      "marked (doubtful/bad/very bad), the luck of every roll, and a summary per player\n"
      "(error rate, rating, marks, luck) by phase. See docs/review.md.");
  cmd->add_option("record", a->record,
                  "A game record (nardy-record), match record (nardy-match) or .mat file (--rule: "
                  "the .mat file's rules)")
      ->required();
  add_agent_option(*cmd, a->agent, "The reviewing agent");
  auto* ply = cmd->add_option("--ply", a->ply,
                              "Search depth of a net agent's analysis (default: its own ply)")
                  ->check(CLI::Range(0, 4));
  cmd->add_option("--rollouts", a->rollouts,
                  "Roll out every move N times instead (net agents too; the agent plays both "
                  "sides)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32))
      ->excludes(ply);
  cmd->add_option("--trials", a->trials,
                  "Rollout trials per move for agents without a net (random, heuristic)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  add_threads_option(*cmd, a->threads, "Turns analysed at once");
  add_seed_option(*cmd, a->seed, "Seed of the rollouts (agents without a net)");
  cmd->add_option("--alternatives", a->alternatives, "Best moves listed per turn")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd->add_option("--thresholds", a->thresholds,
                  "Errors (points) marking a move doubtful, bad and very bad (default 0.04 0.08 "
                  "0.16)")
      ->expected(3);
  cmd->add_flag("--no-luck", a->no_luck, "Do not measure the luck of the rolls");
  cmd->add_flag("--quiet", a->quiet, "Print the summary only");
  add_json_option(*cmd, a->json, "Also write the review as JSON to FILE");
  add_rule_option(*cmd, a->rules);
  cmd->add_option("--html", a->html, "Also write the review as a self-contained HTML page to FILE");
  std::string codes;
  for (std::string_view code : review_languages())
    codes += (codes.empty() ? "" : ", ") + std::string(code);
  cmd->add_option(
         "--lang", a->lang,
         "Language of the text report and the HTML page: " + codes + " (the JSON stays in English)")
      ->capture_default_str();
  cmd->callback([a, cmd] {
    check_agent_available("review", *cmd, a->agent);
    const ReviewStrings* strings = nullptr;
    try {
      strings = &review_strings(a->lang);
    } catch (const Error& e) {
      throw Error(std::string("review: --lang: ") + e.what());
    }
    std::string text;
    try {
      text = read_file(a->record);
    } catch (const Error& e) {
      throw Error(std::string("review: ") + e.what());
    }
    const ReviewInput input =
        read_review_input(text, "review: record " + quote_path(a->record), rules_from(a->rules));
    ReviewOptions o;
    if (a->ply >= 0) o.ply = a->ply;
    o.rollout_trials = a->rollouts > 0 ? a->rollouts : a->trials;
    o.rollouts = a->rollouts > 0;
    o.threads = a->threads;
    o.seed = a->seed;
    o.alternatives = a->alternatives;
    o.luck = !a->no_luck;
    if (!a->thresholds.empty())
      o.thresholds = {a->thresholds[0], a->thresholds[1], a->thresholds[2]};
    const Review r = review_games(input, a->agent, o);
    std::cout << review_text(r, *strings, a->quiet);
    if (!a->json.empty()) write_output_file("review", "JSON", a->json, r.to_json() + "\n");
    if (!a->html.empty()) write_output_file("review", "HTML", a->html, review_html(r, a->lang));
  });
}

}  // namespace nardy::cli
