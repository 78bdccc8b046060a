// The `shrt` command line: `shrt <command> [flags]`.
//
//   shrt validate --op=aten::mul.Tensor[,...] | --all [--world_size=N]
//                 [--format=text|json] [--spec_dir=DIR]
//
// Flags are Abseil flags, parsed here so that every usage error (unknown
// command or flag, bad value) exits with status 2 and names the flag.
#include <iostream>
#include <string>
#include <vector>

#include "ATen/Parallel.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "shrt/registry.h"
#include "tools/validate_command.h"

ABSL_FLAG(std::vector<std::string>, op, {},
          "Overloads to validate, comma-separated, e.g. aten::mul.Tensor,aten::relu");
ABSL_FLAG(bool, all, false, "Validate every overload that has a spec and a strategy");
ABSL_FLAG(int, world_size, 4, "World size W of the simulated 1-D mesh (2 .. 64)");
ABSL_FLAG(std::string, format, "text", "Report format: text or json");
ABSL_FLAG(std::string, spec_dir, "op_specs", "Root of the spec tree (*.textproto below it)");
ABSL_FLAG(std::string, recipe_dir, "op_specs/recipes", "Directory of recipe files");
ABSL_FLAG(uint64_t, seed, 0, "Base seed of every generator and Partial draw");
ABSL_FLAG(int, redraws, 3, "Independent redraws of the parts of Partial inputs");

namespace {

constexpr char kUsage[] =
    "usage: shrt validate (--op=OVERLOAD[,...] | --all) [--world_size=N] "
    "[--format=text|json] [--spec_dir=DIR] [--recipe_dir=DIR] [--seed=N] [--redraws=N]\n";

constexpr const char* kValidateFlags[] = {"op",         "all",  "world_size", "format", "spec_dir",
                                          "recipe_dir", "seed", "redraws"};

// Parses "--name=value" / "--name value" / "--bool_flag" into Abseil flags.
// Returns "" or an error message naming the flag.
std::string ParseFlags(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (!absl::ConsumePrefix(&arg, "--")) return absl::StrCat("unexpected argument '", arg, "'");
    std::string name(arg), value;
    bool has_value = false;
    if (size_t eq = arg.find('='); eq != absl::string_view::npos) {
      name = std::string(arg.substr(0, eq));
      value = std::string(arg.substr(eq + 1));
      has_value = true;
    }
    bool known = false;
    for (const char* f : kValidateFlags) known = known || name == f;
    absl::CommandLineFlag* flag = known ? absl::FindCommandLineFlag(name) : nullptr;
    if (flag == nullptr) return absl::StrCat("unknown flag --", name);
    if (!has_value) {
      if (flag->IsOfType<bool>()) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return absl::StrCat("flag --", name, " needs a value");
      }
    }
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::StrCat("flag --", name, ": ", error);
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(1);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? shrt::kExitUsage : shrt::kExitOk;
  }
  if (args[0] != "validate") {
    std::cerr << "shrt: unknown command '" << args[0] << "'\n" << kUsage;
    return shrt::kExitUsage;
  }
  if (std::string error = ParseFlags({args.begin() + 1, args.end()}); !error.empty()) {
    std::cerr << "shrt validate: " << error << "\n" << kUsage;
    return shrt::kExitUsage;
  }
  shrt::ValidateCommand cmd;
  cmd.ops = absl::GetFlag(FLAGS_op);
  cmd.all = absl::GetFlag(FLAGS_all);
  cmd.world_size = absl::GetFlag(FLAGS_world_size);
  cmd.format = absl::GetFlag(FLAGS_format);
  cmd.spec_dir = absl::GetFlag(FLAGS_spec_dir);
  cmd.recipe_dir = absl::GetFlag(FLAGS_recipe_dir);
  cmd.seed = absl::GetFlag(FLAGS_seed);
  cmd.redraws = absl::GetFlag(FLAGS_redraws);
  return shrt::RunValidate(cmd, shrt::StrategyRegistry::Global(), std::cout, std::cerr);
}
