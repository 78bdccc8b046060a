#include "shrt/spec_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "shrt/generators.h"
#include "shrt/op_lookup.h"
#include "shrt/overload_name.h"

namespace shrt {

using google::protobuf::TextFormat;

struct LoadedSpec::Locations {
  TextFormat::ParseInfoTree tree;
};

namespace {

// Collects the first text-format error as "<path>:<line>:<column>: <msg>".
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  explicit FirstError(std::string path) : path_(std::move(path)) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (error_.empty()) error_ = absl::StrCat(path_, ":", line + 1, ":", column + 1, ": ", message);
  }
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

bool IsIdentifier(absl::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

const google::protobuf::FieldDescriptor* Field(const google::protobuf::Message& m,
                                               absl::string_view name) {
  return m.GetDescriptor()->FindFieldByName(std::string(name));
}

}  // namespace

std::string LoadedSpec::WhereOp() const {
  const auto loc = locations_->tree.GetLocation(Field(proto_, "op"), -1);
  return absl::StrCat(path_, ":", loc.line + 1);
}

std::string LoadedSpec::WhereSample(int s) const {
  const auto loc = locations_->tree.GetLocation(Field(proto_, "sample"), s);
  return absl::StrCat(path_, ":", loc.line + 1);
}

std::string LoadedSpec::WhereArg(int s, int a) const {
  const auto* sample_tree = locations_->tree.GetTreeForNested(Field(proto_, "sample"), s);
  if (sample_tree == nullptr) return WhereSample(s);
  const auto loc = sample_tree->GetLocation(Field(proto_.sample(s), "arg"), a);
  return absl::StrCat(path_, ":", loc.line + 1);
}

absl::StatusOr<LoadedSpec> LoadedSpec::FromText(absl::string_view text, const std::string& path) {
  LoadedSpec spec;
  spec.path_ = path;
  auto locations = std::make_shared<Locations>();
  TextFormat::Parser parser;
  FirstError errors(path);
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&locations->tree);
  if (!parser.ParseFromString(std::string(text), &spec.proto_)) {
    return absl::InvalidArgumentError(errors.error());
  }
  spec.locations_ = std::move(locations);
  const OpSpec& p = spec.proto_;
  if (p.op().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ":1: field 'op' is missing"));
  }
  absl::StatusOr<c10::OperatorName> op = ParseOverloadName(p.op());
  if (!op.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(spec.WhereOp(), ": field 'op': ", op.status().message()));
  }
  spec.op_ = *op;
  if (absl::Status s = CheckOverloadExists(spec.op_); !s.ok()) {
    return absl::NotFoundError(absl::StrCat(spec.WhereOp(), ": field 'op': ", s.message()));
  }
  if (!p.recipe().empty()) {
    if (auto r = RecipeGenerators(p.recipe()); !r.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": field 'recipe': ", r.status().message()));
    }
  }
  if (p.sample_size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": field 'sample': at least one is required"));
  }
  absl::flat_hash_set<std::string> names;
  for (int s = 0; s < p.sample_size(); ++s) {
    const std::string& name = p.sample(s).name();
    if (!IsIdentifier(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          spec.WhereSample(s), ": field 'sample[", s, "].name': '", name,
          "' is not an identifier (letters, digits, '_')"));
    }
    if (!names.insert(name).second) {
      return absl::InvalidArgumentError(absl::StrCat(spec.WhereSample(s), ": field 'sample[", s,
                                                     "].name': '", name, "' is used twice"));
    }
  }
  return spec;
}

absl::StatusOr<LoadedSpec> LoadedSpec::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ":0: cannot read the file"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return FromText(buffer.str(), path);
}

absl::StatusOr<std::vector<LoadedSpec>> LoadSpecDir(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string p = entry.path().string();
    if (absl::EndsWith(p, ".textproto")) paths.push_back(p);
  }
  if (ec) return absl::NotFoundError(absl::StrCat(dir, ": cannot list the directory: ", ec.message()));
  std::sort(paths.begin(), paths.end());
  std::vector<LoadedSpec> specs;
  for (const std::string& p : paths) {
    absl::StatusOr<LoadedSpec> spec = LoadedSpec::FromFile(p);
    if (!spec.ok()) return spec.status();
    specs.push_back(*std::move(spec));
  }
  return specs;
}

}  // namespace shrt
