// "Did you mean" suggestions for unknown overloads (op_lookup.h).
#include "shrt/op_lookup.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ATen/core/dispatch/Dispatcher.h"
#include "gtest/gtest.h"
#include "shrt/overload_name.h"

namespace shrt {
namespace {

// Every overload scored in full, the n best by (distance, name) within
// `bound` edits: what CloseOverloads must return however it prunes.
std::vector<std::string> Exhaustive(const std::string& text, size_t n, size_t bound) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
    const std::string s = OverloadToString(name);
    std::vector<std::vector<size_t>> d(text.size() + 1, std::vector<size_t>(s.size() + 1));
    for (size_t i = 0; i <= text.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= s.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= text.size(); ++i) {
      for (size_t j = 1; j <= s.size(); ++j) {
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (text[i - 1] != s[j - 1])});
      }
    }
    if (d[text.size()][s.size()] <= bound) scored.emplace_back(d[text.size()][s.size()], s);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < n && i < scored.size(); ++i) out.push_back(scored[i].second);
  return out;
}

TEST(OpLookupTest, SuggestsTheClosestOverloadsWithinTheBound) {
  EXPECT_EQ(CloseOverloads("aten::mul.Tensr", 1), std::vector<std::string>{"aten::mul.Tensor"});
  EXPECT_TRUE(CloseOverloads("aten::mul.Tensor", 0).empty());
  // The search stops scoring a name once it cannot enter the best three;
  // the answer is the exhaustive one, ties by name included.
  for (const std::string& text : std::vector<std::string>{"aten::mul.Tensr", "aten::squarx", "aten::add_.Tensor",
                                                          "aten::sum.dim_IntLst", "x", ""}) {
    EXPECT_EQ(CloseOverloads(text, 3), Exhaustive(text, 3, std::min(kMaxSuggestionEdits, 1 + text.size() / 4)))
        << text;
  }
}

// Found by //shrt/fuzz:xfail_fuzz (~90% of its time) and in issue 14 (22 s
// for a 10,000-character --op): a name far from every overload suggests
// nothing, and costs time linear in its length.
TEST(OpLookupTest, FarNamesSuggestNothing) {
  EXPECT_TRUE(CloseOverloads(std::string(100000, 'a'), 3).empty());
  absl::Status unknown = CheckOverloadExists(c10::OperatorName("zzzzzzzzzzzzzzzz::qqqqqqqq", ""));
  EXPECT_EQ(std::string(unknown.message()), "unknown overload 'zzzzzzzzzzzzzzzz::qqqqqqqq'");
  EXPECT_EQ(std::string(CheckOverloadExists(c10::OperatorName("aten::mul", "Tensr")).message()),
            "unknown overload 'aten::mul.Tensr'; did you mean aten::mul.Tensor, aten::mul_.Tensor, aten::sub.Tensor?");
}

}  // namespace
}  // namespace shrt
