#include "shrt/vocab/text_proto.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/tokenizer.h"

namespace shrt {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::TextFormat;

// Collects the first parser error as "<path>:<line>:<column>: <message>".
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  explicit FirstError(std::string path) : path_(std::move(path)) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!error_.empty()) return;
    // The tokenizer names an empty token at the end of the text.
    const bool at_end = absl::EndsWith(message, "got: ");
    error_ = absl::StrCat(path_, ":", line + 1, ":", column + 1, ": ", message,
                          at_end ? "the end of the file" : "");
  }
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

}  // namespace

std::string TextLocations::Where(std::initializer_list<std::pair<absl::string_view, int>> nested,
                                 const Message& root) const {
  const TextFormat::ParseInfoTree* tree = tree_.get();
  const Message* message = &root;
  int line = 0;
  for (const auto& [name, index] : nested) {
    const FieldDescriptor* field = message->GetDescriptor()->FindFieldByName(std::string(name));
    if (field == nullptr || tree == nullptr) break;
    auto loc = tree->GetLocation(field, field->is_repeated() ? index : -1);
    // A list written as `f: [a, b]` records where the list starts only: use
    // the closest earlier value that has a location.
    if (loc.line < 0 && field->is_repeated()) {
      for (int k = std::max(index, 1); loc.line < 0 && k-- > 0;) loc = tree->GetLocation(field, k);
    }
    if (loc.line >= 0) line = loc.line + 1;
    if (field->type() != FieldDescriptor::TYPE_MESSAGE) break;
    const bool in_range = !field->is_repeated() ||
                          (index >= 0 && index < message->GetReflection()->FieldSize(*message, field));
    if (!in_range) break;
    tree = tree->GetTreeForNested(field, field->is_repeated() ? index : -1);
    message = field->is_repeated()
                  ? &message->GetReflection()->GetRepeatedMessage(*message, field, index)
                  : &message->GetReflection()->GetMessage(*message, field);
  }
  return line > 0 ? absl::StrCat(path_, ":", line) : path_;
}

TextFormat::ParseLocationRange TextLocations::Range(absl::string_view field, int index,
                                                   const Message& root) const {
  const FieldDescriptor* f = root.GetDescriptor()->FindFieldByName(std::string(field));
  if (f == nullptr || tree_ == nullptr) return {};
  return tree_->GetLocationRange(f, index);
}

size_t TextOffset(absl::string_view text, TextFormat::ParseLocation where) {
  size_t offset = 0;
  for (int line = 0; line < where.line; ++line) {
    offset = text.find('\n', offset);
    if (offset == absl::string_view::npos) return text.size();
    ++offset;
  }
  // As io::Tokenizer counts: a column per byte, tabs to the next multiple of 8.
  for (int column = 0; column < where.column && offset < text.size() && text[offset] != '\n'; ++offset) {
    column = text[offset] == '\t' ? column + 8 - column % 8 : column + 1;
  }
  return offset;
}

absl::StatusOr<TextLocations> ParseTextProto(absl::string_view text, const std::string& path,
                                             Message* message) {
  auto tree = std::make_shared<TextFormat::ParseInfoTree>();
  TextFormat::Parser parser;
  FirstError errors(path);
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(tree.get());
  if (!parser.ParseFromString(std::string(text), message)) {
    return absl::InvalidArgumentError(errors.error());
  }
  return TextLocations(path, std::move(tree));
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory, not a file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot read the file"));
  std::string out;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    out.append(buffer, static_cast<size_t>(in.gcount()));
    if (out.size() > kMaxFileBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": longer than ", kMaxFileBytes >> 20, " MiB, the most ShRT reads from one file"));
    }
  }
  if (in.bad()) return absl::NotFoundError(absl::StrCat(path, ": cannot read the file"));
  return out;
}

absl::Status FieldError(absl::string_view where, absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": field '", field, "': ", what));
}

}  // namespace shrt
