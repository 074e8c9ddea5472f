// tests/core/printable_test.cpp — core/printable.h: outside text quoted safely in messages.
#include "core/printable.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace nardy {
namespace {

TEST(Printable, PlainTextUnchanged) {
  EXPECT_EQ(printable("24/13 6/off"), "24/13 6/off");
}

TEST(Printable, NulAndControlBytesEscaped) {
  const std::string s("di\0e\n\x01", 6);
  EXPECT_EQ(printable(s), "di\\0e\\n\\x01");
}

TEST(Printable, InvalidUtf8AndHighBytesEscaped) {
  EXPECT_EQ(printable("\xff\xfe"
                      "a\\"),
            "\\xff\\xfea\\");
}

TEST(Printable, LongTextCutWithCount) {
  const std::string s(1000, 'x');
  EXPECT_EQ(printable(s, 10), std::string(10, 'x') + "... (990 more bytes)");
}

TEST(Printable, EveryByteComesOutPrintable) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  const std::string out = printable(all, 256);
  for (char c : out) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(c);
}

}  // namespace
}  // namespace nardy

namespace nardy {
namespace {

// What every message must be (tests/fuzz/fuzz_contract.h checks the same): valid UTF-8 with no
// control characters but newline and tab.
bool valid_printable_utf8(const std::string& s) {
  return printable_message(s) == s;
}

TEST(Quote, QuotesPrintably) {
  EXPECT_EQ(quote("9"), "'9'");
  EXPECT_EQ(quote(std::string("1,2") + '\0' + "xyz"), "'1,2\\0xyz'");
  EXPECT_EQ(quote(std::string(300, 'a')), "'" + std::string(200, 'a') + "... (100 more bytes)'");
}

TEST(PrintablePath, LongPathKeepsItsStartAndItsFileName) {
  const std::string path = "/runs/" + std::string(5000, 'a') + "/ckpt-100.pt";
  const std::string shown = printable_path(path);
  EXPECT_LT(shown.size(), 200u);
  EXPECT_EQ(shown.rfind("/runs/", 0), 0u) << shown;
  EXPECT_EQ(shown.substr(shown.size() - 12), "/ckpt-100.pt") << shown;
  EXPECT_NE(shown.find("...(" + std::to_string(path.size() - 160) + " bytes)..."),
            std::string::npos)
      << shown;
  EXPECT_EQ(printable_path("runs/x\n"), "runs/x\\n");
  EXPECT_EQ(quote_path("a b"), "'a b'");
}

TEST(PrintableMessage, KeepsValidUtf8AndEscapesTheRest) {
  EXPECT_EQ(printable_message("td.lambda (λ): 0..1\n\tsecond line"),
            "td.lambda (λ): 0..1\n\tsecond line");
  EXPECT_EQ(printable_message(std::string("a\0b\r\x7f", 5)), "a\\0b\\r\\x7f");
  // A lone continuation byte, a cut sequence, an overlong '/', a surrogate, a C1 control.
  EXPECT_EQ(printable_message("\x80|\xce|\xc0\xaf|\xed\xa0\x80|\xc2\x85"),
            "\\x80|\\xce|\\xc0\\xaf|\\xed\\xa0\\x80|\\xc2\\x85");
  EXPECT_EQ(printable_message(std::string(5000, 'x')),
            std::string(4000, 'x') + "... (1000 more bytes)");
}

TEST(PrintableMessage, EveryByteStringComesOutValid) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  for (int c = 0; c < 256; ++c) all += "\xe2" + std::string(1, static_cast<char>(c)) + "\x82";
  EXPECT_TRUE(valid_printable_utf8(printable_message(all)));
}

TEST(LibraryErrorText, JsonTagDroppedReasonKept) {
  EXPECT_EQ(library_error_text("[json.exception.parse_error.101] parse error at line 1, column 2: "
                               "syntax error while parsing value - invalid literal; last read: "
                               "'\x01'"),
            "at line 1, column 2: syntax error while parsing value - invalid literal; last read: "
            "'\\x01'");
  EXPECT_EQ(
      library_error_text("[json.exception.type_error.302] type must be string, but is number"),
      "type must be string, but is number");
  EXPECT_EQ(library_error_text("plain"), "plain");
}

TEST(ErrorMessage, NulBytesNoLongerCutTheMessageShort) {
  const Error e(std::string("position '1,2") + '\0' + "xyz w': expected 24 point counts");
  EXPECT_EQ(std::string(e.what()), "position '1,2\\0xyz w': expected 24 point counts");
  EXPECT_TRUE(valid_printable_utf8(Error("bad \xff\xfe byte").what()));
  EXPECT_EQ(std::string(Error("bad \xff byte").what()), "bad \\xff byte");
}

}  // namespace
}  // namespace nardy
