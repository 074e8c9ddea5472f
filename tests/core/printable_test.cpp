// tests/core/printable_test.cpp — core/printable.h: outside text quoted safely in messages.
#include "core/printable.h"

#include <gtest/gtest.h>

#include <string>

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
