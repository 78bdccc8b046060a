#include "shrt/report/xfail_text.h"

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

// True if `text` parses to exactly `want`.
bool ParsesTo(absl::string_view text, const std::string& path, const XfailList& want) {
  XfailList got;
  return ParseTextProto(text, path, &got).ok() && got.SerializeAsString() == want.SerializeAsString();
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

absl::StatusOr<std::string> AppendXfail(absl::string_view text, const std::string& path,
                                        const Xfail& entry) {
  XfailList list;
  if (absl::StatusOr<TextLocations> where = ParseTextProto(text, path, &list); !where.ok()) {
    return where.status();
  }
  XfailList one;
  *one.add_xfail() = entry;
  std::string printed;
  google::protobuf::TextFormat::PrintToString(one, &printed);
  std::string out(text);
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += printed;
  *list.add_xfail() = entry;
  if (!ParsesTo(out, path, list)) {
    return absl::InternalError(absl::StrCat(path, ": cannot add the entry in place"));
  }
  return out;
}

absl::StatusOr<std::string> RemoveXfail(absl::string_view text, const std::string& path,
                                        int index) {
  XfailList list;
  absl::StatusOr<TextLocations> where = ParseTextProto(text, path, &list);
  if (!where.ok()) return where.status();
  if (index < 0 || index >= list.xfail_size()) {
    return absl::OutOfRangeError(absl::StrCat(path, ": has no entry xfail[", index, "]"));
  }
  auto not_a_block = [&] {
    return FieldError(where->Where({{"xfail", index}}, list), absl::StrCat("xfail[", index, "]"),
                      "cannot be removed in place: write it as a block of its own, "
                      "`xfail { ... }`, not inside a list `xfail: [...]`");
  };
  const google::protobuf::TextFormat::ParseLocationRange range = where->Range("xfail", index, list);
  if (range.start.line < 0) return not_a_block();
  size_t begin = TextOffset(text, range.start);
  size_t end = TextOffset(text, range.end);
  // A separator right after the entry is the entry's.
  size_t next = end;
  while (next < text.size() && IsBlank(text[next])) ++next;
  if (next < text.size() && (text[next] == ',' || text[next] == ';')) end = next + 1;
  // An entry with its lines to itself goes with those lines, and with a
  // comment after its closing brace.
  size_t line_begin = begin;
  while (line_begin > 0 && IsBlank(text[line_begin - 1])) --line_begin;
  if (line_begin == 0 || text[line_begin - 1] == '\n') {
    size_t line_end = end;
    while (line_end < text.size() && IsBlank(text[line_end])) ++line_end;
    if (line_end < text.size() && text[line_end] == '#') line_end = text.find('\n', line_end);
    if (line_end >= text.size() || text[line_end] == '\n') {
      begin = line_begin;
      end = line_end >= text.size() ? text.size() : line_end + 1;
    }
  }
  std::string out = absl::StrCat(text.substr(0, begin), text.substr(end));
  list.mutable_xfail()->DeleteSubrange(index, 1);
  if (!ParsesTo(out, path, list)) return not_a_block();
  return out;
}

}  // namespace shrt
