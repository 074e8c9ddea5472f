// Every malformed input of the core parsers gives an Error whose message names the input and
// the problem: parse_pos, parse_position_id, parse_notation / find_move, parse_dice /
// parse_die / make_dice, Rules::parse / set / apply_assignment, read_record / read_records.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "core/record.h"
#include "core/rules.h"
#include "tests/support/error_of.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

const std::string kStartCounts = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15";

// ---- parse_pos ----

TEST(ParsePos, Errors) {
  auto err = [](const std::string& text) { return error_of([&] { parse_pos(text); }); };
  EXPECT_EQ(
      err(""),
      "position '': expected 24 comma-separated counts, a space and the side to move (w or b)");
  EXPECT_EQ(err(kStartCounts),
            "position '" + kStartCounts +
                "': expected 24 comma-separated counts, a space and the side to move (w or b)");
  EXPECT_EQ(err(kStartCounts + " x"),
            "position '" + kStartCounts + " x': side to move must be 'w' or 'b', got 'x'");
  EXPECT_EQ(err(kStartCounts + " W"),
            "position '" + kStartCounts + " W': side to move must be 'w' or 'b', got 'W'");
  EXPECT_EQ(err(kStartCounts + "  w"),
            "position '" + kStartCounts + "  w': side to move must be 'w' or 'b', got ' w'");
  EXPECT_EQ(err(kStartCounts + ",0 w"),
            "position '" + kStartCounts + ",0 w': more than 24 point counts");
  EXPECT_EQ(err("0,0 w"), "position '0,0 w': expected 24 point counts, got 2");
  EXPECT_EQ(err("a,0,0 w"), "position 'a,0,0 w': point 1: 'a' is not a count -15..15");
  EXPECT_EQ(err("0,,0 w"), "position '0,,0 w': point 2: '' is not a count -15..15");
  EXPECT_EQ(err("0,-,0 w"), "position '0,-,0 w': point 2: '-' is not a count -15..15");
  EXPECT_EQ(err("0,0,123 w"), "position '0,0,123 w': point 3: '123' is not a count -15..15");
  EXPECT_EQ(err("0,0,1.5 w"), "position '0,0,1.5 w': point 3: '1.5' is not a count -15..15");
  EXPECT_EQ(err("16,0 w"), "position '16,0 w': point 1: 16 is not a count -15..15");
  EXPECT_EQ(err("0,-16 w"), "position '0,-16 w': point 2: -16 is not a count -15..15");
  const std::string sixteen_white = "1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w";
  EXPECT_EQ(err(sixteen_white),
            "position '" + sixteen_white + "': White has 16 checkers (at most 15)");
  const std::string sixteen_black = "0,0,0,0,0,0,0,0,0,0,-1,-15,0,0,0,0,0,0,0,0,0,0,0,15 b";
  EXPECT_EQ(err(sixteen_black),
            "position '" + sixteen_black + "': Black has 16 checkers (at most 15)");
  // White on 11..6 with every Black checker on its head: a forbidden six-block.
  const std::string block = "0,0,0,0,0,1,1,1,1,1,1,-15,0,0,0,0,0,0,0,0,0,0,0,9 w";
  EXPECT_EQ(err(block),
            "position '" + block +
                "': White holds a forbidden six-block (six consecutive points with no opposing "
                "checker past them)");
  // Black on 16..11 with every White checker on its head (13 and 12 are neighbours for White).
  const std::string black_block = "0,0,0,0,0,0,0,0,0,0,-1,-10,-1,-1,-1,-1,0,0,0,0,0,0,0,15 w";
  EXPECT_EQ(err(black_block),
            "position '" + black_block +
                "': Black holds a forbidden six-block (six consecutive points with no "
                "opposing checker past them)");
}

TEST(ParsePos, AcceptsSurroundingWhitespaceAndSigns) {
  EXPECT_EQ(parse_pos("  " + kStartCounts + " w\n"), Position::start());
  EXPECT_EQ(parse_pos("+0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,+15 w"), Position::start());
  EXPECT_EQ(format_pos(parse_pos(kStartCounts + " b")), kStartCounts + " b");
}

// ---- parse_position: POS text or an ID ----

TEST(ParsePosition, TakesPosTextOrAnIdAndNamesWhatItGot) {
  const Position mid = parse_pos("0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 b");
  EXPECT_EQ(parse_position(format_pos(mid)), mid);
  EXPECT_EQ(parse_position(position_id(mid)), mid);
  EXPECT_EQ(parse_position(" " + position_id(mid) + "\n"), mid);
  // Text with commas is read as POS text, and its own message says why it is not one.
  EXPECT_EQ(error_of([] { parse_position("1,2 w"); }),
            "position '1,2 w': expected 24 point counts, got 2");
  EXPECT_EQ(error_of([] { parse_position("start"); }),
            "position 'start': neither POS text (it has no commas) nor a position ID (expected 14 "
            "characters, got 5)");
  EXPECT_EQ(error_of([] { parse_position("______________"); }),
            "position '______________': neither POS text (it has no commas) nor a position ID "
            "(truncated: fewer than 24 points for White)");
}

// ---- parse_position_id ----

TEST(ParsePositionId, Errors) {
  auto err = [](const std::string& id) { return error_of([&] { parse_position_id(id); }); };
  const std::string start = position_id(Position::start());
  ASSERT_EQ(start.size(), 14u);
  EXPECT_EQ(err(""), "position ID '': expected 14 characters, got 0");
  EXPECT_EQ(err(start + "A"), "position ID '" + start + "A': expected 14 characters, got 15");
  std::string bad_char = start;
  bad_char[3] = '*';
  EXPECT_EQ(err(bad_char),
            "position ID '" + bad_char + "': character '*' is not in the base64url alphabet");
  // All ones: White's first point never ends.
  EXPECT_EQ(err("______________"),
            "position ID '______________': truncated: fewer than 24 points for White");
  auto pack = [](const std::vector<bool>& bits) {
    static const char* kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string id;
    for (int i = 0; i < 14; ++i) {
      int v = 0;
      for (int b = 0; b < 6; ++b)
        if (i * 6 + b < static_cast<int>(bits.size()) && bits[i * 6 + b]) v |= 1 << b;
      id += kAlphabet[v];
    }
    return id;
  };
  // Appends one side's points in its route order 24..1: n ones and a zero each.
  auto side_points = [](std::vector<bool>& bits, const std::vector<int>& counts) {
    for (int c : counts) {
      for (int k = 0; k < c; ++k) bits.push_back(true);
      bits.push_back(false);
    }
  };
  {
    std::vector<bool> bits = {false};
    std::vector<int> white(24, 0);
    white[0] = 10;
    white[1] = 10;
    side_points(bits, white);
    std::string id = pack(bits);
    EXPECT_EQ(err(id), "position ID '" + id + "': White has more than 15 checkers");
  }
  {
    std::vector<bool> bits = {true};
    side_points(bits, std::vector<int>(24, 0));
    std::vector<int> black(24, 0);
    black[0] = 9;
    black[5] = 7;
    side_points(bits, black);
    std::string id = pack(bits);
    EXPECT_EQ(err(id), "position ID '" + id + "': Black has more than 15 checkers");
  }
  {
    // White fine, then Black's points run out of bits.
    std::vector<bool> bits = {false};
    side_points(bits, std::vector<int>(24, 0));
    side_points(bits, std::vector<int>(10, 0));
    while (bits.size() < 84) bits.push_back(true);
    std::string id = pack(bits);
    EXPECT_EQ(err(id), "position ID '" + id + "': truncated: fewer than 24 points for Black");
  }
  {
    std::vector<bool> bits = {false};
    side_points(bits, std::vector<int>(24, 0));
    side_points(bits, std::vector<int>(24, 0));
    bits.push_back(true);  // padding must be zero
    std::string id = pack(bits);
    EXPECT_EQ(err(id), "position ID '" + id + "': padding bits are not zero");
  }
  {
    // White 1 checker on route 24 (point 24); Black 1 checker on its route 12 (point 24).
    std::vector<bool> bits = {false};
    std::vector<int> white(24, 0), black(24, 0);
    white[0] = 1;   // route 24
    black[12] = 1;  // route 12 = point 24
    side_points(bits, white);
    side_points(bits, black);
    std::string id = pack(bits);
    EXPECT_EQ(err(id), "position ID '" + id + "': point 24 holds both colours");
  }
  {
    // White on 11..6 (routes 11..6), Black 15 on its head: a forbidden block.
    std::vector<bool> bits = {false};
    std::vector<int> white(24, 0), black(24, 0);
    white[0] = 9;
    for (int r = 11; r >= 6; --r) white[24 - r] = 1;
    black[0] = 15;
    side_points(bits, white);
    side_points(bits, black);
    std::string id = pack(bits);
    EXPECT_EQ(err(id),
              "position ID '" + id +
                  "': White holds a forbidden six-block (six consecutive points with no opposing "
                  "checker past them)");
    EXPECT_EQ(err(id).find("truncated"), std::string::npos);
  }
}

// ---- parse_notation / find_move ----

TEST(ParseNotation, Errors) {
  auto err = [](const std::string& text) { return error_of([&] { parse_notation(text); }); };
  EXPECT_EQ(err(""), "move: empty notation (use 'pass' for no move)");
  EXPECT_EQ(err("   "), "move: empty notation (use 'pass' for no move)");
  EXPECT_EQ(err("pass 24/18"), "move 'pass 24/18': 'pass' cannot be combined with other moves");
  EXPECT_EQ(err("24/18 pass"), "move '24/18 pass': 'pass' cannot be combined with other moves");
  EXPECT_EQ(err("24/18(5)"), "move '24/18(5)': repeat count must be (1)..(4) in '24/18(5)'");
  EXPECT_EQ(err("24/18(0)"), "move '24/18(0)': repeat count must be (1)..(4) in '24/18(0)'");
  EXPECT_EQ(err("24/18(2"), "move '24/18(2': repeat count must be (1)..(4) in '24/18(2'");
  EXPECT_EQ(err("24/18(2)x"), "move '24/18(2)x': repeat count must be (1)..(4) in '24/18(2)x'");
  EXPECT_EQ(err("24"), "move '24': expected FROM/TO, got '24'");
  EXPECT_EQ(err("24-18"), "move '24-18': expected FROM/TO, got '24-18'");
  EXPECT_EQ(err("24/"), "move '24/': expected a point number 1..24, got ''");
  EXPECT_EQ(err("/18"), "move '/18': expected a point number 1..24, got ''");
  EXPECT_EQ(err("24//18"), "move '24//18': expected a point number 1..24, got ''");
  EXPECT_EQ(err("x/18"), "move 'x/18': expected a point number 1..24, got 'x'");
  EXPECT_EQ(err("124/18"), "move '124/18': expected a point number 1..24, got '124'");
  EXPECT_EQ(err("25/18"), "move '25/18': point 25 is not in 1..24");
  EXPECT_EQ(err("24/0"), "move '24/0': point 0 is not in 1..24");
  EXPECT_EQ(err("off/18"), "move 'off/18': expected a point number 1..24, got 'off'");
  EXPECT_EQ(err("6/off/2"), "move '6/off/2': 'off' must end a path in '6/off/2'");
}

TEST(ParseNotation, AcceptedForms) {
  EXPECT_TRUE(parse_notation("pass").empty());
  auto v = parse_notation("24/18/13 6/off(2)");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].from, 24);
  EXPECT_EQ(v[0].to, 13);
  EXPECT_EQ(v[1].from, 6);
  EXPECT_EQ(v[1].to, 0);
}

TEST(FindMove, Errors) {
  Position start = Position::start();
  auto err = [&](Dice dice, const std::string& text) {
    return error_of([&] { find_move(start, dice, {}, text); });
  };
  EXPECT_EQ(err({6, 5}, "24/18 24/19"), "move '24/18 24/19' is not legal with 6-5 (legal: 24/13)");
  EXPECT_EQ(err({6, 5}, "24/13(2)"), "move '24/13(2)' is not legal with 6-5 (legal: 24/13)");
  EXPECT_EQ(err({6, 5}, "13/7"),
            "move '13/7' is not legal with 6-5 (legal: 24/13)");  // no checker on 13
  EXPECT_EQ(err({6, 5}, "24/off"), "move '24/off' is not legal with 6-5 (legal: 24/13)");
  EXPECT_EQ(err({6, 5}, "18/24"),
            "move '18/24' is not legal with 6-5 (legal: 24/13)");  // backwards
  EXPECT_EQ(err({6, 5}, "24/12"),
            "move '24/12' is not legal with 6-5 (legal: 24/13)");  // onto Black
  EXPECT_EQ(err({6, 5}, "pass"), "move 'pass' is not legal with 6-5 (legal: 24/13)");
  EXPECT_EQ(err({6, 5}, "x"), "move 'x': expected FROM/TO, got 'x'");
  // Many legal moves: the message gives their number instead of the list.
  Position spread =
      board({{24, 10}, {20, 1}, {18, 1}, {16, 1}, {14, 1}, {10, 1}}, {{12, 15}}, Side::White);
  std::string e = error_of([&] { find_move(spread, {4, 2}, {}, "24/18 24/20"); });
  EXPECT_EQ(e.rfind("move '24/18 24/20' is not legal with 4-2 (", 0), 0u) << e;
  EXPECT_NE(e.find(" legal moves)"), std::string::npos) << e;
}

// ---- parse_dice / make_dice ----

TEST(ParseDice, Errors) {
  auto err = [](const std::string& text) { return error_of([&] { parse_dice(text); }); };
  EXPECT_EQ(err(""), "dice '': expected two dice such as 6-5");
  EXPECT_EQ(err("6"), "dice '6': expected two dice such as 6-5");
  EXPECT_EQ(err("6-"), "dice '6-': expected two dice such as 6-5");
  EXPECT_EQ(err("6-5-4"), "dice '6-5-4': expected two dice such as 6-5");
  EXPECT_EQ(err("6x5"), "dice '6x5': expected two dice such as 6-5");
  EXPECT_EQ(err("six-five"), "dice 'six-five': expected two dice such as 6-5");
  EXPECT_EQ(err("7-1"), "dice: 7 is not a die value 1..6");
  EXPECT_EQ(err("0-1"), "dice: 0 is not a die value 1..6");
  EXPECT_EQ(err("1-9"), "dice: 9 is not a die value 1..6");
}

TEST(ParseDice, AcceptedForms) {
  for (const char* text : {"6-5", "65", "6 5", "6,5", " 6 - 5 "})
    EXPECT_EQ(parse_dice(text), (Dice{6, 5})) << text;
  EXPECT_EQ(format_dice(parse_dice("1-6")), "1-6");
}

TEST(ParseDie, ErrorsAndValues) {
  for (const char* text : {"", "0", "7", "x", "66", "-1", " 6"})
    EXPECT_EQ(error_of([&] { parse_die(text); }), "die '" + std::string(text) + "' is not 1..6")
        << text;
  for (int d = 1; d <= 6; ++d) EXPECT_EQ(parse_die(std::to_string(d)), d);
}

TEST(MakeDice, Errors) {
  EXPECT_EQ(error_of([] { make_dice(0, 3); }), "dice: 0 is not a die value 1..6");
  EXPECT_EQ(error_of([] { make_dice(3, 7); }), "dice: 7 is not a die value 1..6");
  EXPECT_EQ(error_of([] { make_dice(-1, 3); }), "dice: -1 is not a die value 1..6");
  EXPECT_EQ(make_dice(3, 4), (Dice{3, 4}));
}

// ---- Rules ----

TEST(RulesParse, Errors) {
  EXPECT_EQ(error_of([] { Rules::parse("opening=sometimes"); }),
            "rule 'opening': unknown value 'sometimes' (expected one of: no_doubles, any_roll)");
  EXPECT_EQ(
      error_of([] { Rules::parse("head_exception=loose"); }),
      "rule 'head_exception': unknown value 'loose' (expected one of: standard, strict, none)");
  EXPECT_EQ(error_of([] { Rules::parse("last_roll_draw=yes"); }),
            "rule 'last_roll_draw': unknown value 'yes' (expected one of: false, true)");
  EXPECT_EQ(error_of([] { Rules::parse("next_game_starter=loser"); }),
            "rule 'next_game_starter': unknown value 'loser' (expected one of: previous_black, "
            "previous_winner)");
  EXPECT_EQ(error_of([] { Rules::parse("cube=on"); }),
            "unknown rule 'cube' (expected one of: opening, head_exception, last_roll_draw, "
            "next_game_starter)");
  EXPECT_EQ(error_of([] { Rules::parse("opening"); }),
            "rule 'opening': expected KEY=VALUE, e.g. opening=any_roll");
  EXPECT_EQ(error_of([] { Rules::parse("=any_roll"); }),
            "rule '=any_roll': expected KEY=VALUE, e.g. opening=any_roll");
  EXPECT_EQ(error_of([] { Rules::parse("opening="); }),
            "rule 'opening': unknown value '' (expected one of: no_doubles, any_roll)");
  EXPECT_EQ(error_of([] { Rules::parse("Opening=any_roll"); }),
            "unknown rule 'Opening' (expected one of: opening, head_exception, last_roll_draw, "
            "next_game_starter)");
}

TEST(RulesSet, Errors) {
  Rules r;
  EXPECT_EQ(
      error_of([&] { r.set("head_exception", "Strict"); }),
      "rule 'head_exception': unknown value 'Strict' (expected one of: standard, strict, none)");
  EXPECT_EQ(error_of([&] { r.set("nope", "x"); }),
            "unknown rule 'nope' (expected one of: opening, head_exception, last_roll_draw, "
            "next_game_starter)");
  EXPECT_EQ(error_of([&] { r.get("nope"); }),
            "unknown rule 'nope' (expected one of: opening, head_exception, last_roll_draw, "
            "next_game_starter)");
  EXPECT_EQ(error_of([&] { Rules::values_of("nope"); }),
            "unknown rule 'nope' (expected one of: opening, head_exception, last_roll_draw, "
            "next_game_starter)");
  EXPECT_EQ(error_of([&] { r.apply_assignment("last_roll_draw"); }),
            "rule 'last_roll_draw': expected KEY=VALUE, e.g. opening=any_roll");
  EXPECT_EQ(r, Rules{});  // failed calls change nothing
}

// ---- read_record ----

const char* kHeader = "nardy-record 1\n";

TEST(ReadRecord, Errors) {
  auto err = [](const std::string& text) { return error_of([&] { read_record(text); }); };
  EXPECT_EQ(err(""), "record: empty (no 'nardy-record 1' header)");
  EXPECT_EQ(err("# only a comment\n\n"), "record: empty (no 'nardy-record 1' header)");
  EXPECT_EQ(err("nardy-record 2\n"),
            "record line 1: expected the header 'nardy-record 1', got 'nardy-record 2'");
  EXPECT_EQ(err("6-5 24/13\n"),
            "record line 1: expected the header 'nardy-record 1', got '6-5 24/13'");
  EXPECT_EQ(err(std::string(kHeader) + "rules opening=maybe\n"),
            "record line 2: rule 'opening': unknown value 'maybe' (expected one of: no_doubles, "
            "any_roll)");
  EXPECT_EQ(err(std::string(kHeader) + "rules opening=any_roll\nrules opening=any_roll\n"),
            "record line 3: a second rules line");
  EXPECT_EQ(err(std::string(kHeader) + "start 1,2,3 w\n"),
            "record line 2: position '1,2,3 w': expected 24 point counts, got 3");
  EXPECT_EQ(err(std::string(kHeader) + "6-5\n"),
            "record line 2: expected DICE MOVE, e.g. '6-5 24/13', got '6-5'");
  EXPECT_EQ(err(std::string(kHeader) + "6-7 24/13\n"),
            "record line 2: dice: 7 is not a die value 1..6");
  EXPECT_EQ(err(std::string(kHeader) + "6x5 24/13\n"),
            "record line 2: dice '6x5': expected two dice such as 6-5");
  EXPECT_EQ(err(std::string(kHeader) + "6-5 24/18 24/19\n"),
            "record line 2: move '24/18 24/19' is not legal with 6-5 (legal: 24/13)");
  EXPECT_EQ(
      err(std::string(kHeader) + "6-6 24/18(2)\n"),
      "record line 2: dice 6-6: the opening roll cannot be a double under opening=no_doubles");
  EXPECT_EQ(err(std::string(kHeader) + "6-5 24/13\nresult white 1\n"),
            "record line 3: result 'white 1' but the game is not over");
  EXPECT_EQ(
      err(std::string(kHeader) +
          "start 1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w\n6-5 1/off\nresult white 1\n"),
      "record line 4: result 'white 1' but the replayed game ends white 2");
  EXPECT_EQ(err(std::string(kHeader) + "start 1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 "
                                       "w\n6-5 1/off\nresult white 2\n3-1 12/8\n"),
            "record line 5: text after the result line: '3-1 12/8'");
  EXPECT_EQ(err(std::string(kHeader) + "6-5 24/13\nrules opening=any_roll\n"),
            "record line 3: a rules line must come before the first move");
  EXPECT_EQ(err(std::string(kHeader) + "6-5 24/13\nstart " + kStartCounts + " w\n"),
            "record line 3: a start line must come before the first move");
}

TEST(ReadRecords, Errors) {
  EXPECT_EQ(error_of([] { read_records("6-5 24/13\n"); }),
            "record file: no 'nardy-record 1' header found");
  std::string two = std::string(kHeader) + "6-5 24/13\n" + kHeader + "6-5 24/18 24/19\n";
  EXPECT_EQ(error_of([&] { read_records(two); }),
            "record 2: record line 2: move '24/18 24/19' is not legal with 6-5 (legal: 24/13)");
}

}  // namespace
}  // namespace nardy::testing
