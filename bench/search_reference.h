// bench/search_reference.h — a recorded set of search decisions that later code must reproduce.
//
// Speed work on the search (batched levels, incremental siblings, caches) must not change what
// it chooses. A reference file records, for the fixed positions of `nardy bench search`
// (bench/search_bench.h), every candidate the agent scored: the result, the ply it was valued
// at and its equity and probabilities (mover's view). It is written by
//   nardy bench search --agent SPEC --positions N --record FILE
// and tests/bench/search_reference_test.cpp replays it against the current code.
//
// Format (text, one record per line, '#' lines are comments):
//   agent SPEC
//   position POS<TAB>D1 D2                 a decision (POS text of core/pos_text.h)
//   move ID<TAB>PLY<TAB>EQUITY<TAB>WIN<TAB>WIN_MARS<TAB>LOSE_MARS<TAB>DRAW
//                                           its candidates best first (ID: core/position_id.h)
// Numbers are written with 9 significant digits (a float round-trips).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"
#include "nn/evaluation.h"

namespace nardy {

struct SearchReferenceMove {
  Position result;
  int ply = 0;
  Evaluation eval;  // mover's view
};

struct SearchReferenceDecision {
  Position position;
  Dice dice;
  std::vector<SearchReferenceMove> moves;  // best first, as the agent ranked them
};

struct SearchReference {
  std::string agent;
  std::vector<SearchReferenceDecision> decisions;
};

// Ranks every sample of bench_search_samples(positions, seed, rules) with the net agent of
// `agent_spec` (NetAgent::rank) and returns the decisions. Throws Error if the spec is not a
// net agent.
SearchReference record_search_reference(const std::string& agent_spec, int64_t positions,
                                        uint64_t seed, const Rules& rules);

void write_search_reference(const SearchReference& ref, const std::string& command,
                            std::ostream& out);
// Throws Error naming `source` and the line on malformed input.
SearchReference read_search_reference(std::istream& in, const std::string& source);

}  // namespace nardy
