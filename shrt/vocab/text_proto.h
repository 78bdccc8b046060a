// Parsing protobuf text files with errors that name the file, line and
// field: the one way specs, recipes and xfails are read.
#ifndef SHRT_VOCAB_TEXT_PROTO_H_
#define SHRT_VOCAB_TEXT_PROTO_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "google/protobuf/text_format.h"
#include "shrt/vocab/limits.h"

namespace shrt {

// A parsed text file: where each field of the message came from.
class TextLocations {
 public:
  TextLocations(std::string path, std::shared_ptr<google::protobuf::TextFormat::ParseInfoTree> tree)
      : path_(std::move(path)), tree_(std::move(tree)) {}

  const std::string& path() const { return path_; }

  // "<path>:<line>" (1-based) of `field` of the message at `nested`, where
  // `nested` walks from the root: {{"sample", 2}, {"arg", 1}} is the second
  // arg of the third sample. `index` is the repeated field's index, or -1.
  // Falls back to the closest enclosing location when a field was not in
  // the file (e.g. left at its default).
  std::string Where(std::initializer_list<std::pair<absl::string_view, int>> nested,
                    const google::protobuf::Message& root) const;

  // Where value `index` of the root message's repeated field `field` is in
  // the text: from its field name to just past its value, as the parser
  // counts lines and columns (0-based; see TextOffset). Start line -1 when
  // the value was not in the file, or shares one range with its neighbours
  // (only the first value of a list `f: [a, b]` has one, spanning the list).
  google::protobuf::TextFormat::ParseLocationRange Range(absl::string_view field, int index,
                                                         const google::protobuf::Message& root) const;

 private:
  std::string path_;
  std::shared_ptr<google::protobuf::TextFormat::ParseInfoTree> tree_;
};

// Parses `text` (the content of `path`) into `message`.
// Errors: InvalidArgument "<path>:<line>:<column>: <parser message>" for a
// syntax error or an unknown field.
absl::StatusOr<TextLocations> ParseTextProto(absl::string_view text, const std::string& path,
                                             google::protobuf::Message* message);

// The byte offset in `text` of a location the parser recorded (0-based
// line and column; its tokenizer counts a column per byte, a tab advancing
// to the next multiple of 8), or text.size() for one past the end.
size_t TextOffset(absl::string_view text, google::protobuf::TextFormat::ParseLocation where);

// Reads a whole file. Errors: NotFound "<path>: cannot read the file";
// InvalidArgument "<path>: is a directory, not a file", or when it is
// longer than kMaxFileBytes (limits.h).
absl::StatusOr<std::string> ReadFile(const std::string& path);

// "<where>: field '<field>': <what>" as InvalidArgument: the one form of a
// bad-input error.
absl::Status FieldError(absl::string_view where, absl::string_view field, absl::string_view what);

}  // namespace shrt

#endif  // SHRT_VOCAB_TEXT_PROTO_H_
