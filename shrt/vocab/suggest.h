// "Did you mean ...?": the one suggestion function of ShRT, for an unknown
// overload, flag or name.
//
// Suggestions compare case-insensitively (ATEN::RELU suggests aten::relu)
// by Levenshtein distance, within a band: only candidates at most
// MaxSuggestionDistance(text) edits away are scored, in O(|text| * band)
// time each, so a name of any length costs time linear in it, and a name
// far from everything suggests nothing rather than noise.
#ifndef SHRT_VOCAB_SUGGEST_H_
#define SHRT_VOCAB_SUGGEST_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace shrt {

// The most edits a suggestion may be from `text`: 1 + |text| / 4, at most
// 8 (a typo or two in a short name, a few more in a long one).
size_t MaxSuggestionDistance(absl::string_view text);

// Up to `max` of `candidates` within MaxSuggestionDistance(text) of `text`,
// ignoring ASCII case, closest first (ties in candidate order).
std::vector<std::string> CloseMatches(absl::string_view text,
                                      const std::vector<std::string>& candidates, int max);

}  // namespace shrt

#endif  // SHRT_VOCAB_SUGGEST_H_
