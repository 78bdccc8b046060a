// Exports the exact cases the C++ engine generates for one or more
// overloads, for an independent re-implementation of the ground truth
// (tools/bench/differential.py) to run the same calls on the same full
// tensors.
//
//   bazel-bin/tools/bench/export_cases --op=aten::mul.Tensor[,aten::mm,...] --out=DIR
//   bazel-bin/tools/bench/export_cases --spec=FILE --out=DIR
//
// (from the workspace root; --spec_dir and --recipe_dir default to
// op_specs and op_specs/recipes, --seed to 0, as in `shrt discover`).
//
// For every overload it writes DIR/<test target name>/manifest.json and
// DIR/<test target name>/tensors.bin. tensors.bin is the concatenation of
// the raw little-endian element buffers of every full input tensor (each
// contiguous, row-major; bool as one byte per element), and the manifest
// names each buffer by byte offset, dtype and shape. The manifest holds,
// per expanded sample (BoundSample::BindAll, in the engine's order):
//   - the argument list in schema order: each argument is
//     {"input": i} (tensor input i), {"inputs": [i, j]} (a Tensor[] or
//     Tensor?[] argument), {"out": dtype} (an out= tensor: the call takes a
//     fresh empty tensor of that dtype), {"none": true}, {"int": n},
//     {"float": x} (x may be the string "inf", "-inf" or "nan"),
//     {"bool": b}, {"int_list": [...]}, {"str": s}, {"dtype": name},
//     {"layout": "strided"}, {"device": "cpu"} or
//     {"memory_format": name}; with the argument's name and whether it
//     is keyword-only;
//   - per tensor input: label, shape, dtype, layout (contiguous,
//     transposed, strided: the engine calls the overload with every full
//     and local tensor in that layout), recipe, and `index_only` (every
//     generator of its recipe draws indices: the engine gives it no
//     Partial placement, recipes.h IsIndexRecipe);
//   - mutates (in-place or out=), output_aliases (per flattened output,
//     the input written in place, or -1), local_shape_arg (schema index of
//     the spec's local_shape_arg, or -1), the spec's tolerance override,
//     and is_variant (the engine skips a sample whose full inputs the
//     variant rejects);
//   - per case g the engine runs (CaseMaker::cases(), less its Repeats): the
//     seed the engine used (rng.h CaseSeed), whether some input draws
//     special values (generators.h DrawsSpecialValues: the engine checks
//     R and S outputs for shapes only and counts no such case
//     informative), the generator name of each input (generator g % n of
//     its recipe) and its full tensor.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/ivalue.h"
#include "ATen/core/jit_type.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "shrt/engine/full_case.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/ops/overload_name.h"
#include "shrt/spec/generators.h"
#include "shrt/spec/recipes.h"
#include "shrt/spec/rng.h"

ABSL_FLAG(std::string, op, "", "Overloads to export, comma-separated (aten::mul.Tensor,aten::mm)");
ABSL_FLAG(std::string, spec, "", "A spec file to export instead (its group's first overload)");
ABSL_FLAG(std::string, spec_dir, "op_specs", "Root of the spec tree");
ABSL_FLAG(std::string, recipe_dir, "op_specs/recipes", "Directory of recipe files");
ABSL_FLAG(uint64_t, seed, 0, "Base seed, as `shrt discover --seed`");
ABSL_FLAG(std::string, out, "", "Output directory (one subdirectory per overload)");

namespace shrt {
namespace {

std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string Double(double v) {
  if (std::isnan(v)) return "\"nan\"";
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  std::string s = absl::StrFormat("%.17g", v);
  // Keep it a JSON float (Python reads "2" as an int).
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

// torch dtype names (torch.float32 -> "float32").
std::string DtypeName(c10::ScalarType t) {
  switch (t) {
    case c10::ScalarType::Float: return "float32";
    case c10::ScalarType::Double: return "float64";
    case c10::ScalarType::Half: return "float16";
    case c10::ScalarType::BFloat16: return "bfloat16";
    case c10::ScalarType::Long: return "int64";
    case c10::ScalarType::Int: return "int32";
    case c10::ScalarType::Short: return "int16";
    case c10::ScalarType::Char: return "int8";
    case c10::ScalarType::Byte: return "uint8";
    case c10::ScalarType::Bool: return "bool";
    case c10::ScalarType::ComplexFloat: return "complex64";
    case c10::ScalarType::ComplexDouble: return "complex128";
    default: return c10::toString(t);
  }
}

std::string LayoutName(Layout l) {
  switch (l) {
    case TRANSPOSED: return "transposed";
    case STRIDED: return "strided";
    default: return "contiguous";
  }
}

std::string IntList(const std::vector<int64_t>& v) {
  return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
}

// The schema type of `a` with one Optional stripped.
c10::TypePtr BaseType(const c10::Argument& a) {
  c10::TypePtr t = a.real_type();
  if (auto o = t->cast<c10::OptionalType>()) t = o->getElementType();
  return t;
}

// The index of the input tensor `t` is (the same TensorImpl), or -1.
int InputIndex(const at::Tensor& t, const std::vector<at::Tensor>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (t.is_same(inputs[i])) return static_cast<int>(i);
  }
  return -1;
}

// One argument of the stack as JSON; error text in *error if it has a
// kind this format does not carry.
std::string ArgJson(const c10::Argument& arg, const c10::IValue& v,
                    const std::vector<at::Tensor>& inputs, std::string* error) {
  const c10::TypePtr type = BaseType(arg);
  std::string value;
  if (v.isNone()) {
    value = "\"none\": true";
  } else if (v.isTensor()) {
    const int i = InputIndex(v.toTensor(), inputs);
    if (arg.is_out() || i < 0) {
      value = absl::StrCat("\"out\": ", Quote(DtypeName(v.toTensor().scalar_type())));
    } else {
      value = absl::StrCat("\"input\": ", i);
    }
  } else if (v.isTensorList() || v.isList()) {
    if (type->kind() == c10::TypeKind::ListType &&
        (v.isTensorList() || (v.isList() && !v.isIntList() && !v.isDoubleList() && !v.isBoolList()))) {
      std::vector<int> idx;
      for (const c10::IValue& e : v.toListRef()) {
        if (!e.isTensor()) {
          *error = absl::StrCat("argument '", arg.name(), "': a list element that is not a tensor");
          return "";
        }
        idx.push_back(InputIndex(e.toTensor(), inputs));
      }
      value = absl::StrCat("\"inputs\": [", absl::StrJoin(idx, ", "), "]");
    } else if (v.isIntList()) {
      value = absl::StrCat("\"int_list\": ", IntList(v.toIntVector()));
    } else {
      *error = absl::StrCat("argument '", arg.name(), "': unsupported list ", v.tagKind());
      return "";
    }
  } else if (v.isBool()) {
    value = absl::StrCat("\"bool\": ", v.toBool() ? "true" : "false");
  } else if (v.isInt()) {
    // ScalarType, Layout and MemoryFormat IValues are ints; the schema says which.
    switch (type->kind()) {
      case c10::TypeKind::ScalarTypeType:
        value = absl::StrCat("\"dtype\": ", Quote(DtypeName(static_cast<c10::ScalarType>(v.toInt()))));
        break;
      case c10::TypeKind::LayoutType:
        if (static_cast<c10::Layout>(v.toInt()) != c10::Layout::Strided) {
          *error = absl::StrCat("argument '", arg.name(), "': a non-strided layout");
          return "";
        }
        value = "\"layout\": \"strided\"";
        break;
      case c10::TypeKind::MemoryFormatType: {
        const auto f = static_cast<c10::MemoryFormat>(v.toInt());
        const char* name = f == c10::MemoryFormat::Contiguous     ? "contiguous_format"
                           : f == c10::MemoryFormat::Preserve     ? "preserve_format"
                           : f == c10::MemoryFormat::ChannelsLast ? "channels_last"
                                                                  : "channels_last_3d";
        value = absl::StrCat("\"memory_format\": ", Quote(name));
        break;
      }
      default:
        value = absl::StrCat("\"int\": ", v.toInt());
    }
  } else if (v.isDouble()) {
    value = absl::StrCat("\"float\": ", Double(v.toDouble()));
  } else if (v.isString()) {
    value = absl::StrCat("\"str\": ", Quote(v.toStringRef()));
  } else if (v.isDevice()) {
    if (!v.toDevice().is_cpu()) {
      *error = absl::StrCat("argument '", arg.name(), "': a non-CPU device");
      return "";
    }
    value = "\"device\": \"cpu\"";
  } else {
    *error = absl::StrCat("argument '", arg.name(), "': unsupported value kind ", v.tagKind());
    return "";
  }
  return absl::StrCat("{\"name\": ", Quote(arg.name()), ", \"kwarg_only\": ",
                      arg.kwarg_only() ? "true" : "false", ", ", value, "}");
}

// Appends `t`'s raw contiguous bytes to `blob`; returns its JSON record.
std::string TensorRecord(const at::Tensor& t, std::string& blob) {
  const at::Tensor c = t.contiguous();
  const size_t offset = blob.size();
  const size_t nbytes = static_cast<size_t>(c.numel()) * c.element_size();
  if (nbytes > 0) blob.append(static_cast<const char*>(c.data_ptr()), nbytes);
  return absl::StrCat("{\"offset\": ", offset, ", \"nbytes\": ", nbytes, ", \"dtype\": ",
                      Quote(DtypeName(c.scalar_type())), ", \"shape\": ", IntList(c.sizes().vec()),
                      "}");
}

absl::Status Export(const LoadedSpec& spec, uint64_t seed, const std::string& dir) {
  std::string blob;
  std::vector<std::string> samples;
  const c10::FunctionSchema* schema = nullptr;
  std::vector<int> output_aliases;
  bool mutates = false;
  for (int s = 0; s < spec.proto().sample_size(); ++s) {
    absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(spec, s);
    if (!bound.ok()) return bound.status();
    for (const BoundSample& sample : *bound) {
      schema = &sample.handle().schema();
      mutates = sample.mutates();
      output_aliases = sample.output_aliases();
      std::vector<const Recipe*> recipes;
      std::vector<std::string> inputs;
      for (const InputSpec& in : sample.inputs()) {
        absl::StatusOr<const Recipe*> r = spec.recipes().Find(in.recipe);
        if (!r.ok()) return r.status();
        recipes.push_back(*r);
        inputs.push_back(absl::StrCat(
            "{\"label\": ", Quote(in.label), ", \"shape\": ", IntList(in.shape), ", \"dtype\": ",
            Quote(DtypeName(in.dtype)), ", \"layout\": ", Quote(LayoutName(in.layout)),
            ", \"recipe\": ", Quote(in.recipe), ", \"index_only\": ",
            IsIndexRecipe(**r) ? "true" : "false", "}"));
      }
      const GenContext context = sample.MakeGenContext();
      // The engine's cases: their number and which repeat (a tiny sample's
      // rounds, full_case.h kMinCaseElements).
      TruthOptions options;
      options.seed = seed;
      CaseMaker plan(spec, s, sample, options);
      if (absl::Status st = plan.Init(); !st.ok()) return st;
      std::vector<std::string> case_json;
      std::string args_json;
      for (size_t g = 0; g < plan.cases(); ++g) {
        if (plan.Repeats(g)) continue;
        const uint64_t case_seed = CaseSeed(seed, spec.proto().sample(s).name(), g);
        std::vector<at::Tensor> full;
        std::vector<std::string> names, tensors;
        bool special = false;  // CheckContext::special_inputs
        for (size_t i = 0; i < sample.inputs().size(); ++i) {
          const InputSpec& in = sample.inputs()[i];
          const Generator& gen =
              recipes[i]->generator(static_cast<int>(g % recipes[i]->generator_size()));
          names.push_back(Quote(gen.name()));
          special = special || DrawsSpecialValues(gen, in.dtype);
          absl::StatusOr<at::Tensor> t =
              Generate(gen, in.shape, in.dtype, static_cast<int>(i), case_seed, context);
          if (!t.ok()) {
            return absl::InvalidArgumentError(absl::StrCat("sample ", sample.name(), ", input ",
                                                           in.label, ": ", t.status().message()));
          }
          tensors.push_back(TensorRecord(*t, blob));
          full.push_back(*t);
        }
        // The engine does not run such a case (spec.proto
        // special_values_undefined).
        if (special && !spec.proto().special_values_undefined().empty()) continue;
        if (g == 0) {
          // The argument list, with the tensors of this case found by identity.
          const std::vector<c10::IValue> stack = sample.Stack(full);
          std::vector<std::string> args;
          for (size_t a = 0; a < schema->arguments().size() && a < stack.size(); ++a) {
            std::string error;
            std::string j = ArgJson(schema->arguments()[a], stack[a], full, &error);
            if (!error.empty()) {
              return absl::UnimplementedError(
                  absl::StrCat(OverloadToString(spec.op()), " sample ", sample.name(), ": ", error));
            }
            args.push_back(std::move(j));
          }
          args_json = absl::StrCat("[\n        ", absl::StrJoin(args, ",\n        "), "]");
        }
        case_json.push_back(absl::StrCat("{\"g\": ", g, ", \"seed\": ", case_seed,
                                         ", \"special\": ", special ? "true" : "false",
                                         ", \"generators\": [", absl::StrJoin(names, ", "),
                                         "], \"tensors\": [", absl::StrJoin(tensors, ", "), "]}"));
      }
      samples.push_back(absl::StrCat(
          "{\"index\": ", s, ", \"name\": ", Quote(sample.name()), ", \"description\": ",
          Quote(sample.Describe()), ",\n      \"inputs\": [", absl::StrJoin(inputs, ", "),
          "],\n      \"args\": ", args_json, ",\n      \"cases\": [\n        ",
          absl::StrJoin(case_json, ",\n        "), "]}"));
    }
  }
  int local_shape = -1;
  if (schema != nullptr && !spec.proto().local_shape_arg().empty()) {
    if (auto idx = schema->argumentIndexWithName(spec.proto().local_shape_arg())) {
      local_shape = static_cast<int>(*idx);
    }
  }
  std::string tolerance = "null";
  if (spec.proto().has_tolerance()) {
    tolerance = absl::StrCat("{\"rtol\": ", Double(spec.proto().tolerance().rtol()),
                             ", \"atol\": ", Double(spec.proto().tolerance().atol()), "}");
  }
  const std::string manifest = absl::StrCat(
      "{\n  \"op\": ", Quote(OverloadToString(spec.op())),
      ",\n  \"namespace\": ", Quote(spec.op().name.substr(0, spec.op().name.find("::"))),
      ",\n  \"name\": ", Quote(spec.op().name.substr(spec.op().name.find("::") + 2)),
      ",\n  \"overload\": ", Quote(spec.op().overload_name.empty() ? "default" : spec.op().overload_name),
      ",\n  \"spec\": ", Quote(spec.path()), ",\n  \"is_variant\": ",
      spec.is_variant() ? "true" : "false", ",\n  \"mutates\": ", mutates ? "true" : "false",
      ",\n  \"output_aliases\": [", absl::StrJoin(output_aliases, ", "),
      "],\n  \"local_shape_arg\": ", local_shape, ",\n  \"tolerance\": ", tolerance,
      ",\n  \"seed\": ", seed, ",\n  \"samples\": [\n    ",
      absl::StrJoin(samples, ",\n    "), "]\n}\n");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  for (const auto& [name, content] : {std::pair<std::string, const std::string*>("manifest.json", &manifest),
                                      std::pair<std::string, const std::string*>("tensors.bin", &blob)}) {
    const std::string path = absl::StrCat(dir, "/", name);
    std::ofstream f(path + ".tmp", std::ios::binary);
    f.write(content->data(), static_cast<std::streamsize>(content->size()));
    f.close();
    if (!f) return absl::InternalError(absl::StrCat("cannot write ", path));
    std::filesystem::rename(path + ".tmp", path, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot write ", path, ": ", ec.message()));
  }
  return absl::OkStatus();
}

int Main() {
  const std::string ops = absl::GetFlag(FLAGS_op), spec_file = absl::GetFlag(FLAGS_spec),
                    out = absl::GetFlag(FLAGS_out);
  if (ops.empty() == spec_file.empty() || out.empty()) {
    std::cerr << "export_cases: give --out=DIR and exactly one of --op=OVERLOAD[,...] and --spec=FILE\n";
    return 2;
  }
  std::vector<LoadedSpec> chosen;
  if (!spec_file.empty()) {
    absl::StatusOr<RecipeSet> recipes = RecipeSet::FromDir(absl::GetFlag(FLAGS_recipe_dir));
    if (!recipes.ok()) {
      std::cerr << "export_cases: " << recipes.status().message() << "\n";
      return 2;
    }
    absl::StatusOr<std::vector<LoadedSpec>> s =
        LoadSpecFile(spec_file, std::make_shared<const RecipeSet>(*std::move(recipes)),
                     absl::GetFlag(FLAGS_spec_dir));
    if (!s.ok()) {
      std::cerr << "export_cases: " << s.status().message() << "\n";
      return 2;
    }
    chosen.push_back(std::move(s->front()));
  } else {
    absl::StatusOr<std::vector<LoadedSpec>> specs =
        LoadSpecTree(absl::GetFlag(FLAGS_spec_dir), absl::GetFlag(FLAGS_recipe_dir));
    if (!specs.ok()) {
      std::cerr << "export_cases: " << specs.status().message() << "\n";
      return 2;
    }
    for (absl::string_view text : absl::StrSplit(ops, ',', absl::SkipWhitespace())) {
      absl::StatusOr<c10::OperatorName> name = ParseOverloadName(text);
      if (!name.ok()) {
        std::cerr << "export_cases: --op: " << name.status().message() << "\n";
        return 2;
      }
      const LoadedSpec* found = nullptr;
      for (const LoadedSpec& s : *specs) {
        if (s.op() == *name) found = &s;
      }
      if (found == nullptr) {
        std::cerr << "export_cases: --op: " << OverloadToString(*name) << " has no spec in "
                  << absl::GetFlag(FLAGS_spec_dir) << "/\n";
        return 2;
      }
      chosen.push_back(*found);
    }
  }
  int status = 0;
  for (const LoadedSpec& spec : chosen) {
    const std::string dir = absl::StrCat(out, "/", TestTargetName(spec.op()));
    if (absl::Status st = Export(spec, absl::GetFlag(FLAGS_seed), dir); !st.ok()) {
      std::cerr << "export_cases: " << OverloadToString(spec.op()) << ": " << st.message() << "\n";
      status = 1;
      continue;
    }
    std::cout << OverloadToString(spec.op()) << " " << dir << "\n";
  }
  return status;
}

}  // namespace
}  // namespace shrt

// Exits without libtorch's teardown (torch_runtime.h ExitWithoutTeardown).
int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  shrt::ExitWithoutTeardown(shrt::Main());
}
