#include "shrt/report/checkability.h"

#include <filesystem>
#include <utility>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/ops/overload_name.h"
#include "shrt/vocab/printable.h"
#include "shrt/vocab/text_proto.h"

namespace shrt {
namespace {

// True when `type` is, or contains (Tensor?, Tensor[], Tensor?[]), `kind`.
bool Contains(const c10::TypePtr& type, c10::TypeKind kind) {
  if (type->kind() == kind) return true;
  for (const c10::TypePtr& inner : type->containedTypes()) {
    if (Contains(inner, kind)) return true;
  }
  return false;
}

bool Writes(const c10::Argument& arg) {
  return arg.alias_info() != nullptr && arg.alias_info()->isWrite();
}

// The dispatch keys of each kind of kernel (c10/core/DispatchKey.h).
constexpr c10::DispatchKey kDenseCpuKeys[] = {
    c10::DispatchKey::CPU,
    c10::DispatchKey::CompositeImplicitAutograd,
    c10::DispatchKey::CompositeExplicitAutograd,
    c10::DispatchKey::CompositeExplicitAutogradNonFunctional,
};
constexpr c10::DispatchKey kSparseKeys[] = {
    c10::DispatchKey::SparseCPU,
    c10::DispatchKey::SparseCUDA,
    c10::DispatchKey::SparseCsrCPU,
    c10::DispatchKey::SparseCsrCUDA,
};
constexpr c10::DispatchKey kQuantizedKeys[] = {
    c10::DispatchKey::QuantizedCPU,
    c10::DispatchKey::QuantizedCUDA,
};
constexpr c10::DispatchKey kNestedKeys[] = {
    c10::DispatchKey::NestedTensorCPU,
    c10::DispatchKey::NestedTensorCUDA,
};

template <size_t N>
bool AnyKernel(const c10::OperatorHandle& op, const c10::DispatchKey (&keys)[N]) {
  for (c10::DispatchKey k : keys) {
    if (op.hasKernelForDispatchKey(k)) return true;
  }
  return false;
}

// "dim_DimnameList", "names_dim", "Dimname_Scalar", "using_names".
bool NamesDimnames(const std::string& overload) {
  const std::string lower = absl::AsciiStrToLower(overload);
  if (absl::StrContains(lower, "dimname")) return true;
  for (absl::string_view token : absl::StrSplit(lower, '_')) {
    if (token == "names") return true;
  }
  return false;
}

// Words of aten's operator names that say what an operator is for.
struct NameMark {
  absl::string_view word;
  bool OverloadFacts::*fact;
};
constexpr NameMark kNameMarks[] = {
    {"cudnn", &OverloadFacts::backend_name},  {"miopen", &OverloadFacts::backend_name},
    {"mkldnn", &OverloadFacts::backend_name}, {"mps", &OverloadFacts::backend_name},
    {"fbgemm", &OverloadFacts::backend_name}, {"vulkan", &OverloadFacts::backend_name},
    {"sparse", &OverloadFacts::sparse_name},  {"nested", &OverloadFacts::nested_name},
};

// Whether `word` is one of the '_'-separated words of `name` ("_mps_convolution",
// "lstm_mps_backward"), so that "mps" does not match inside another word.
bool HasWord(absl::string_view name, absl::string_view word) {
  for (absl::string_view w : absl::StrSplit(name, '_')) {
    if (w == word) return true;
  }
  return false;
}

// Classify's order: the first rule that holds names the category.
struct Rule {
  bool (*holds)(const OverloadFacts&);
  UncheckableCategory category;
};
constexpr Rule kRules[] = {
    {[](const OverloadFacts& f) { return f.generator; }, RANDOM},
    {[](const OverloadFacts& f) { return f.named; }, NAMED_TENSOR},
    {[](const OverloadFacts& f) { return f.sparse_name || (!f.dense_cpu_kernel && f.sparse_kernel); },
     SPARSE_LAYOUT},
    {[](const OverloadFacts& f) { return !f.dense_cpu_kernel && f.quantized_kernel; }, QUANTIZED},
    {[](const OverloadFacts& f) { return f.nested_name || (!f.dense_cpu_kernel && f.nested_kernel); },
     NESTED},
    {[](const OverloadFacts& f) { return f.backend_name || !f.dense_cpu_kernel; }, BACKEND_ONLY},
    {[](const OverloadFacts& f) { return !f.tensor_input; }, FACTORY},
    {[](const OverloadFacts& f) { return !f.tensor_output; }, METADATA_QUERY},
};

// The operator an entry of the file names: "aten::nonzero" for every
// overload, "aten::nonzero.out" (or "aten::relu.default") for one.
std::string OverloadKey(const c10::OperatorName& op) {
  return absl::StrCat(op.name, ".", op.overload_name.empty() ? "default" : op.overload_name);
}

}  // namespace

OverloadFacts FactsOf(const c10::OperatorHandle& op) {
  OverloadFacts f;
  const c10::FunctionSchema& schema = op.schema();
  for (const c10::Argument& arg : schema.arguments()) {
    const bool tensor = Contains(arg.type(), c10::TypeKind::TensorType);
    if (tensor && !arg.is_out()) f.tensor_input = true;
    if (tensor && Writes(arg)) f.tensor_output = true;
    if (Contains(arg.type(), c10::TypeKind::GeneratorType)) f.generator = true;
  }
  for (const c10::Argument& ret : schema.returns()) {
    if (Contains(ret.type(), c10::TypeKind::TensorType)) f.tensor_output = true;
  }
  f.named = NamesDimnames(schema.overload_name());
  absl::string_view name = schema.name();
  if (const size_t colons = name.find("::"); colons != absl::string_view::npos) {
    name.remove_prefix(colons + 2);
  }
  for (const NameMark& mark : kNameMarks) {
    if (HasWord(name, mark.word)) f.*mark.fact = true;
  }
  f.dense_cpu_kernel = AnyKernel(op, kDenseCpuKeys);
  f.sparse_kernel = AnyKernel(op, kSparseKeys);
  f.quantized_kernel = AnyKernel(op, kQuantizedKeys);
  f.nested_kernel = AnyKernel(op, kNestedKeys);
  return f;
}

UncheckableCategory Classify(const OverloadFacts& facts) {
  for (const Rule& rule : kRules) {
    if (rule.holds(facts)) return rule.category;
  }
  return UNCHECKABLE_CATEGORY_UNSPECIFIED;
}

std::string CategoryText(UncheckableCategory category) {
  if (category == UNCHECKABLE_CATEGORY_UNSPECIFIED) return "checkable";
  std::string text = absl::AsciiStrToLower(UncheckableCategory_Name(category));
  for (char& c : text) {
    if (c == '_') c = ' ';
  }
  return text;
}

absl::StatusOr<NotCheckableFile> NotCheckableFile::Parse(absl::string_view text,
                                                         const std::string& path) {
  NotCheckableFile file;
  absl::StatusOr<TextLocations> where = ParseTextProto(text, path, &file.proto_);
  if (!where.ok()) return where.status();
  // Every operator the dispatcher knows, listed when an entry first names
  // one without a default overload (an overload is looked up directly).
  absl::flat_hash_set<std::string> operators;
  auto known = [&](const c10::OperatorName& name, bool whole_operator) {
    if (c10::Dispatcher::singleton().findSchema(name).has_value()) return true;
    if (!whole_operator) return false;
    if (operators.empty()) {
      for (const c10::OperatorName& op : c10::Dispatcher::singleton().getAllOpNames()) {
        operators.insert(op.name);
      }
    }
    return operators.contains(name.name);
  };
  for (int e = 0; e < file.proto_.entry_size(); ++e) {
    const NotCheckableEntry& entry = file.proto_.entry(e);
    const std::string field = absl::StrCat("entry[", e, "].");
    auto error = [&](absl::string_view name, absl::string_view what) {
      return FieldError(where->Where({{"entry", e}, {name, -1}}, file.proto_),
                        absl::StrCat(field, name), what);
    };
    absl::StatusOr<c10::OperatorName> name = ParseOverloadName(entry.op());
    if (!name.ok()) return error("op", name.status().message());
    const bool whole_operator = !absl::StrContains(entry.op(), '.');
    const std::string key = whole_operator ? name->name : OverloadKey(*name);
    if (!known(whole_operator ? c10::OperatorName(name->name, "") : *name, whole_operator)) {
      return error("op", absl::StrCat("the dispatcher has no ",
                                      whole_operator ? "operator '" : "overload '",
                                      Printable(entry.op()), "'"));
    }
    if (!file.index_.emplace(key, e).second) {
      return error("op", absl::StrCat("'", Printable(entry.op()), "' is named twice"));
    }
    if (entry.category() == UNCHECKABLE_CATEGORY_UNSPECIFIED) {
      return error("category", "required");
    }
    if (absl::StripAsciiWhitespace(entry.reason()).empty()) {
      return error("reason", "required: say why it cannot be checked");
    }
  }
  return file;
}

absl::StatusOr<NotCheckableFile> NotCheckableFile::Read(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return Parse(*text, path);
}

const NotCheckableEntry* NotCheckableFile::Find(const c10::OperatorName& op) const {
  auto it = index_.find(OverloadKey(op));
  if (it == index_.end()) it = index_.find(op.name);
  return it == index_.end() ? nullptr : &proto_.entry(it->second);
}

absl::StatusOr<NotCheckableFile> NotCheckableFileOf(const std::string& spec_dir) {
  const std::string path = (std::filesystem::path(spec_dir) / std::string(kNotCheckableFile)).string();
  absl::StatusOr<NotCheckableFile> file = NotCheckableFile::Read(path);
  if (absl::IsNotFound(file.status())) return NotCheckableFile::Parse("", path);
  return file;
}

UncheckableCategory CategoryOf(const c10::OperatorHandle& op, const NotCheckableFile& file) {
  if (const NotCheckableEntry* entry = file.Find(op.operator_name()); entry != nullptr) {
    return entry->category();
  }
  return Classify(FactsOf(op));
}

}  // namespace shrt
