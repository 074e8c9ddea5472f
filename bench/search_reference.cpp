#include "bench/search_reference.h"

#include <cstdio>
#include <istream>
#include <ostream>
#include <sstream>

#include "bench/search_bench.h"
#include "core/error.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"

namespace nardy {

SearchReference record_search_reference(const std::string& agent_spec, int64_t positions,
                                        uint64_t seed, const Rules& rules) {
  const auto samples = bench_search_samples(positions, seed, rules);
  auto agent = make_agent(agent_spec, rules);
  auto* net = dynamic_cast<NetAgent*>(agent.get());
  if (!net) throw Error("search reference: agent " + quote(agent_spec) + " is not a net agent");
  SearchReference ref;
  ref.agent = agent_spec;
  std::vector<ScoredMove> scored;
  for (const auto& s : samples) {
    net->rank(s.pos, s.moves, scored);
    SearchReferenceDecision d{s.pos, s.dice, {}};
    for (const auto& m : scored) d.moves.push_back({s.moves[m.index].position, m.ply, m.eval});
    ref.decisions.push_back(std::move(d));
  }
  return ref;
}

void write_search_reference(const SearchReference& ref, const std::string& command,
                            std::ostream& out) {
  out << "# nardy search reference (bench/search_reference.h); recorded by:\n# " << command
      << "\nagent " << ref.agent << "\n";
  char buf[256];
  for (const auto& d : ref.decisions) {
    out << "position " << format_pos(d.position) << '\t' << int{d.dice.d1} << ' ' << int{d.dice.d2}
        << '\n';
    for (const auto& m : d.moves) {
      std::snprintf(buf, sizeof buf, "\t%d\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\n", m.ply,
                    static_cast<double>(m.eval.equity()), static_cast<double>(m.eval.win),
                    static_cast<double>(m.eval.win_mars), static_cast<double>(m.eval.lose_mars),
                    static_cast<double>(m.eval.draw));
      out << "move " << position_id(m.result) << buf;
    }
  }
}

SearchReference read_search_reference(std::istream& in, const std::string& source) {
  SearchReference ref;
  std::string line;
  int line_no = 0;
  auto fail = [&](const std::string& what) {
    throw Error("search reference " + quote_path(source) + " line " + std::to_string(line_no) +
                ": " + what);
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp);
    const std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    try {
      if (key == "agent") {
        ref.agent = rest;
      } else if (key == "position") {
        const size_t tab = rest.find('\t');
        if (tab == std::string::npos) fail("expected POS<TAB>D1 D2");
        int d1 = 0, d2 = 0;
        std::istringstream dice(rest.substr(tab + 1));
        if (!(dice >> d1 >> d2)) fail("bad dice " + quote(rest.substr(tab + 1)));
        const Dice d{static_cast<uint8_t>(d1), static_cast<uint8_t>(d2)};
        if (!d.valid()) fail("dice out of range");
        ref.decisions.push_back({parse_pos(rest.substr(0, tab)), d, {}});
      } else if (key == "move") {
        if (ref.decisions.empty()) fail("a move before any position");
        std::istringstream fields(rest);
        std::string id;
        SearchReferenceMove m;
        double equity = 0, win = 0, wm = 0, lm = 0, draw = 0;
        if (!(fields >> id >> m.ply >> equity >> win >> wm >> lm >> draw))
          fail("expected ID PLY EQUITY WIN WIN_MARS LOSE_MARS DRAW");
        m.result = parse_position_id(id);
        m.eval = Evaluation{static_cast<float>(win), static_cast<float>(wm), static_cast<float>(lm),
                            static_cast<float>(draw)};
        ref.decisions.back().moves.push_back(m);
      } else {
        fail("unknown record " + quote(key));
      }
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.rfind("search reference '", 0) == 0) throw;
      fail(what);
    }
  }
  if (ref.agent.empty())
    throw Error("search reference " + quote_path(source) + ": no 'agent' line");
  return ref;
}

}  // namespace nardy
