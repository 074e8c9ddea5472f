// tests/support/error_of.h — the message of the nardy::Error a call throws, for tests that
// check error messages: EXPECT_EQ(error_of([] { parse_dice("7-1"); }), "dice ...").
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace nardy::testing {

// The message of the nardy::Error that f throws; fails the test (and returns "") if f throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected nardy::Error";
  return "";
}

}  // namespace nardy::testing
