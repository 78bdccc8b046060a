#include "shrt/vocab/suggest.h"

#include <algorithm>
#include <limits>

#include "absl/strings/ascii.h"

namespace shrt {
namespace {

// The Levenshtein distance of a and b (ASCII case ignored) if it is at most
// `band`, else band + 1. Only the cells within `band` of the diagonal are
// computed (Ukkonen's cut-off).
size_t BandedDistance(absl::string_view a, absl::string_view b, size_t band) {
  const size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > band) return band + 1;
  const size_t far = band + 1;
  std::vector<size_t> prev(m + 1, far), cur(m + 1, far);
  for (size_t j = 0; j <= std::min(m, band); ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    const size_t lo = i > band ? i - band : 1;
    const size_t hi = std::min(m, i + band);
    // Cells left of the band keep a value from two rows ago: reset the one
    // the row reads. Cells right of it were never written: still `far`.
    cur[lo - 1] = lo == 1 && i <= band ? i : far;
    size_t best = cur[lo - 1];
    for (size_t j = lo; j <= hi; ++j) {
      const bool same = absl::ascii_tolower(static_cast<unsigned char>(a[i - 1])) ==
                        absl::ascii_tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1), far});
      best = std::min(best, cur[j]);
    }
    if (best > band) return far;
    std::swap(prev, cur);
  }
  return std::min(prev[m], far);
}

}  // namespace

size_t MaxSuggestionDistance(absl::string_view text) { return std::min<size_t>(8, 1 + text.size() / 4); }

std::vector<std::string> CloseMatches(absl::string_view text,
                                      const std::vector<std::string>& candidates, int max) {
  const size_t band = MaxSuggestionDistance(text);
  std::vector<std::pair<size_t, size_t>> scored;  // distance, candidate index
  for (size_t k = 0; k < candidates.size(); ++k) {
    const size_t d = BandedDistance(text, candidates[k], band);
    if (d <= band) scored.emplace_back(d, k);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && static_cast<int>(i) < max; ++i) {
    out.push_back(candidates[scored[i].second]);
  }
  return out;
}

}  // namespace shrt
