#include "selfplay/play_session/play_session.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>

#include "core/error.h"
#include "core/file_io.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/mat_format.h"
#include "core/record.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"

namespace nardy {

namespace {

constexpr uint64_t kAgentSalt = 0x3C6EF372FE94F82Bull;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

Match resumed_match(const PlaySessionOptions& o);

Match initial_match(const PlaySessionOptions& o) {
  const int human_white = o.human_colour == Side::White ? 0 : 1;
  if (o.resume_record.empty()) return Match(o.target, o.rules, human_white);
  if (o.resume_source.empty()) return resumed_match(o);
  try {
    return resumed_match(o);
  } catch (const Error& e) {
    throw Error("play: " + o.resume_source + ": " + e.what());
  }
}

Match resumed_match(const PlaySessionOptions& o) {
  const int human_white = o.human_colour == Side::White ? 0 : 1;
  const std::string_view text = o.resume_record;
  if (looks_like_mat(text)) return read_mat(text, o.rules);  // core/mat_format.h
  const size_t first = text.find("nardy-");
  if (text.substr(first == std::string_view::npos ? 0 : first).starts_with("nardy-match"))
    return read_match_record(text);
  Game game = read_record(text);
  if (!(game.start() == Position::start()))
    throw Error(
        "play: the game record starts from a position other than the start; only games "
        "from the start can be resumed");
  Match m(1, game.rules(), human_white);
  m.current_game() = std::move(game);
  return m;
}

std::string percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * p);
  return buf;
}

std::string signed3(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.3f", x);
  return buf;
}

const char* kHelp =
    "Enter a move (e.g. 24/13, 24/18/13, 13/7 8/2, 6/off(2), pass) or its number from `legal`.\n"
    "Commands: legal, hint, undo, save FILE, board, help, quit (and keep, after a tutor's "
    "warning).\n";

}  // namespace

PlaySession::PlaySession(const PlaySessionOptions& options)
    : options_(options),
      match_(initial_match(options)),
      agent_(make_agent(options.agent, match_.rules())),
      table_(match_.target(), GameOutcomeModel::self_play(match_.rules()), match_.rules()),
      dice_rng_(options.seed),
      agent_rng_(options.seed ^ kAgentSalt) {
  if (options.tutor_threshold && !(*options.tutor_threshold > 0 && *options.tutor_threshold < 10))
    throw Error("play: the tutor's threshold must be a number of points in (0, 10) (got " +
                std::to_string(*options.tutor_threshold) + ")");
  if (options.hint_trials < 1)
    throw Error("play: hint trials must be >= 1 (got " + std::to_string(options.hint_trials) + ")");
  options_.rules = match_.rules();
  if (match_.names[0].empty()) match_.names[0] = options.human_name;
  if (match_.names[1].empty()) match_.names[1] = agent_->spec();
}

PlaySession::~PlaySession() = default;

std::string PlaySession::who(int player) const {
  const bool white = player == match_.current_white_player();
  return (player == 0 ? options_.human_name : std::string("bot")) +
         (white ? " (White)" : " (Black)");
}

GameStakes PlaySession::stakes() const {
  return table_.stakes(match_.score_before_current_game());
}

std::string PlaySession::board() const {
  const MatchScore s = match_.score();
  std::string out = "game " + std::to_string(match_.games().size()) + " of the match to " +
                    std::to_string(match_.target()) + ": " + MatchScore(s).to_string(match_.names) +
                    "\n";
  out += draw_board(match_.current_game().position());
  return out;
}

std::string PlaySession::start() {
  std::string out = options_.human_name + " vs " + agent_->spec() + ", match to " +
                    std::to_string(match_.target()) + " point(s); you play " +
                    (match_.current_white_player() == 0 ? "White" : "Black") +
                    " in this game. Type `help` for the commands.\n";
  out += board();
  out += advance();
  return out;
}

std::string PlaySession::prompt() const {
  if (waiting_ == Waiting::Nothing) return "";
  const int mover = match_.player_to_move();
  if (waiting_ == Waiting::Dice) return "dice for " + who(mover) + "> ";
  return who(mover) + " " + format_dice(*dice_) + "> ";
}

std::string PlaySession::play_agent_turn() {
  Game& game = match_.current_game();
  const Position before = game.position();
  const MoveList moves = game.legal(*dice_);
  const GameStakes st = stakes();
  agent_->set_game_stakes(st);
  const size_t choice = agent_->choose(before, *dice_, moves, agent_rng_);
  std::string out = "bot plays " + format_dice(*dice_) + " " + format_move(moves[choice].move);
  if (auto* net = dynamic_cast<NetAgent*>(agent_.get()); net && moves.size() > 1) {
    const OutcomeValues& v = st.for_side(before.side_to_move());
    const Evaluation e0 = net->evaluate(before);
    std::vector<ScoredMove> scored;
    net->rank(before, moves, scored);
    for (const ScoredMove& s : scored)
      if (s.index == choice) {
        const Evaluation& e1 = s.eval;
        out += "   equity " + signed3(e0.equity()) + " -> " + signed3(e1.equity()) + ", win " +
               percent(e1.win) + ", match winning chance " +
               percent(v.value(e0.win, e0.win_mars, e0.lose_mars, e0.draw)) + " -> " +
               percent(v.value(e1.win, e1.win_mars, e1.lose_mars, e1.draw));
      }
  }
  game.play(*dice_, moves[choice]);
  dice_.reset();
  return out + "\n";
}

std::string PlaySession::advance() {
  std::string out;
  for (;;) {
    Game& game = match_.current_game();
    if (auto o = game.outcome()) {
      const int white = match_.current_white_player();
      if (o->is_draw()) {
        out += "game " + std::to_string(match_.games().size()) + " is a draw\n";
      } else {
        const int winner = *o->winner == Side::White ? white : 1 - white;
        out += "game " + std::to_string(match_.games().size()) + ": " +
               (winner == 0 ? options_.human_name + " win" : std::string("bot wins")) + " " +
               (o->is_mars() ? "2 points (mars)" : "1 point (oin)") + "\n";
      }
      const MatchScore s = match_.score();
      out += "score: " + s.to_string(match_.names) + "\n";
      if (s.is_over()) {
        out += *s.winner() == 0 ? "You win the match.\n" : "The bot wins the match.\n";
        waiting_ = Waiting::Nothing;
        return out;
      }
      match_.start_next_game();
      out += "\n" + board();
      continue;
    }
    if (!dice_) {
      if (options_.manual_dice) {
        waiting_ = Waiting::Dice;
        return out;
      }
      dice_ = game.roll(dice_rng_);
      out += who(match_.player_to_move()) + " rolls " + format_dice(*dice_) + "\n";
    }
    if (!human_to_move()) {
      out += play_agent_turn();
      out += board();
      continue;
    }
    legal_ = game.legal(*dice_);
    if (legal_.size() == 1 && legal_[0].move.num_steps == 0) {
      out += options_.human_name + " cannot move: pass\n";
      game.play(*dice_, legal_[0]);
      dice_.reset();
      continue;
    }
    waiting_ = Waiting::Move;
    return out;
  }
}

std::string PlaySession::legal_list() const {
  std::string out;
  for (size_t i = 0; i < legal_.size(); ++i)
    out += "  " + std::to_string(i + 1) + ". " + format_move(legal_[i].move) + "\n";
  return out;
}

std::string PlaySession::hint() {
  const Game& game = match_.current_game();
  AnalysisOptions o;
  o.rules = match_.rules();
  o.rollout_trials = options_.hint_trials;
  o.seed = options_.seed;
  Analysis a = analyze_moves(game.position(), *dice_, options_.agent, o);
  const OutcomeValues v = stakes().for_side(game.position().side_to_move());
  const bool net = a.moves.empty() || a.moves[0].ply >= 0;
  auto mwc = [&](const MoveAnalysis& m) { return v.value(m.win, m.win_mars, m.lose_mars, m.draw); };
  // A score-aware net agent ranks by match winning chance (among the deepest-valued moves, as
  // NetAgent::choose does), so the hint shows its order and its choice.
  const auto* agent = dynamic_cast<const NetAgent*>(agent_.get());
  const bool by_mwc = agent && agent->options().match && agent->options().noise == 0;
  if (by_mwc) {
    std::stable_sort(a.moves.begin(), a.moves.end(),
                     [&](const MoveAnalysis& x, const MoveAnalysis& y) {
                       return x.ply != y.ply ? x.ply > y.ply : mwc(x) > mwc(y);
                     });
    for (size_t i = 0; i < a.moves.size(); ++i) a.moves[i].agent_choice = i == 0;
  }
  std::string out =
      "hint (" + a.method + (by_mwc ? ", by match winning chance" : "") + ", best first):\n";
  for (size_t i = 0; i < a.moves.size() && i < 8; ++i) {
    const MoveAnalysis& m = a.moves[i];
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "  %-22s equity %+.3f%s  win %5.1f%%  win mars %5.1f%%  lose mars %5.1f%%",
                  m.notation.c_str(), m.equity,
                  net ? "" : (" ±" + std::to_string(m.equity_se).substr(0, 5)).c_str(), 100 * m.win,
                  100 * m.win_mars, 100 * m.lose_mars);
    out += buf;
    out += "  match winning chance " + percent(mwc(m));
    out += m.agent_choice ? "  <- bot's choice\n" : "\n";
  }
  if (a.moves.size() > 8) out += "  ... " + std::to_string(a.moves.size() - 8) + " more\n";
  return out;
}

std::optional<std::string> PlaySession::tutor_warning(size_t chosen) {
  const Game& game = match_.current_game();
  AnalysisOptions o;
  o.rules = match_.rules();
  o.rollout_trials = options_.hint_trials;
  o.seed = options_.seed;
  const Analysis a = analyze_moves(game.position(), *dice_, options_.agent, o);
  const MoveAnalysis* played = nullptr;
  for (const MoveAnalysis& m : a.moves)
    if (m.position == legal_[chosen].position) played = &m;
  if (!played) return std::nullopt;
  const MoveAnalysis& best = a.moves.front();
  const double loss = best.equity - played->equity;
  if (!(loss > *options_.tutor_threshold)) return std::nullopt;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "tutor: %s loses %.3f points of equity (%+.3f) against the best move %s (%+.3f; "
                "%s).\nEnter another move, the same move again or `keep` to play it.\n",
                played->notation.c_str(), loss, played->equity, best.notation.c_str(), best.equity,
                a.method.c_str());
  return std::string(buf);
}

std::string PlaySession::play_human_move(size_t chosen) {
  tutor_pending_.reset();
  match_.current_game().play(*dice_, legal_[chosen]);
  dice_.reset();
  std::string out = board();
  return out + advance();  // after `out`: advance() moves the game on
}

std::string PlaySession::undo() {
  // The turns of the match, last first, with their mover; the person's moves (not forced passes)
  // are the ones to go back to.
  auto last_turn = [&]() -> std::optional<std::pair<Game::Turn, int>> {
    for (size_t g = match_.games().size(); g-- > 0;) {
      const auto& h = match_.games()[g].history();
      if (h.empty()) continue;
      const int white = match_.white_players()[g];
      return std::pair{h.back(), h.back().before.side_to_move() == Side::White ? white : 1 - white};
    }
    return std::nullopt;
  };
  bool any = false;
  for (size_t g = 0; g < match_.games().size(); ++g)
    for (const auto& t : match_.games()[g].history()) {
      const int white = match_.white_players()[g];
      const int mover = t.before.side_to_move() == Side::White ? white : 1 - white;
      any = any || (mover == 0 && t.move.num_steps > 0);
    }
  if (!any) return "nothing to undo: you have not moved yet\n";
  for (;;) {
    const auto [turn, mover] = *last_turn();
    match_.undo();
    if (mover == 0 && turn.move.num_steps > 0) {
      dice_ = turn.dice;
      legal_ = match_.current_game().legal(turn.dice);
      waiting_ = Waiting::Move;
      return "took back your move " + format_move(turn.move) + " with " + format_dice(turn.dice) +
             "\n" + board();
    }
  }
}

std::string PlaySession::command(std::string_view cmd, std::string_view arg) {
  if (cmd == "help") return kHelp;
  if (cmd == "board") return board();
  if (cmd == "quit" || cmd == "exit") {
    waiting_ = Waiting::Nothing;
    return "bye\n";
  }
  if (cmd == "save") {
    if (arg.empty()) return "error: save needs a file name (save FILE)\n";
    try {
      write_file_atomic(std::string(arg), record(), "match record");
    } catch (const Error& e) {
      return std::string("error: ") + e.what() + "\n";
    }
    return "saved the match record to " + quote_path(arg) + "\n";
  }
  if (cmd == "undo") {
    tutor_pending_.reset();
    return undo();
  }
  if (waiting_ != Waiting::Move)
    return "error: " + quote(cmd) + " needs a roll first; enter the dice (e.g. 6-5)\n";
  if (cmd == "legal") return legal_list();
  if (cmd == "hint") return hint();
  if (cmd == "keep") {
    if (!tutor_pending_)
      return "error: `keep` plays a move the tutor warned about; there is none\n";
    return play_human_move(*tutor_pending_);
  }
  return "";
}

std::string PlaySession::input(std::string_view raw) {
  const std::string_view line = trim(raw);
  if (waiting_ == Waiting::Nothing) return "the session is over\n";
  if (line.empty()) return "";
  const size_t sp = line.find(' ');
  const std::string_view cmd = line.substr(0, sp);
  const std::string_view arg = sp == std::string_view::npos ? "" : trim(line.substr(sp + 1));
  static const char* kCommands[] = {"help", "board", "quit", "exit", "save",
                                    "undo", "legal", "hint", "keep"};
  for (const char* c : kCommands)
    if (cmd == c) return command(cmd, arg);
  try {
    if (waiting_ == Waiting::Dice) {
      const Dice d = parse_dice(line);
      match_.current_game().legal(d);  // checks the opening rule
      dice_ = d;
      std::string out = who(match_.player_to_move()) + " rolls " + format_dice(d) + "\n";
      return out + advance();  // after `out`: advance() moves the game on
    }
    // A move: its number in the legal list, or notation.
    size_t index = legal_.size();
    int number = 0;
    auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), number);
    if (ec == std::errc() && p == line.data() + line.size()) {
      if (number < 1 || static_cast<size_t>(number) > legal_.size())
        throw Error("move number " + std::to_string(number) + " is not in the legal list (1.." +
                    std::to_string(legal_.size()) + ")");
      index = static_cast<size_t>(number - 1);
    }
    if (index >= legal_.size()) {
      const Game& game = match_.current_game();
      const MoveResult r = find_move(game.position(), *dice_, match_.rules(), line);
      for (size_t i = 0; i < legal_.size(); ++i)
        if (legal_[i].position == r.position) index = i;
      if (index >= legal_.size()) throw Error("move " + quote(line) + " is not a legal result");
    }
    // The tutor looks at a decision's move once; the same move again (or `keep`) plays it.
    if (options_.tutor_threshold && legal_.size() > 1 && tutor_pending_ != index) {
      if (auto warning = tutor_warning(index)) {
        tutor_pending_ = index;
        return *warning;
      }
    }
    return play_human_move(index);
  } catch (const Error& e) {
    return std::string("error: ") + e.what() + "\n";
  }
}

}  // namespace nardy
