// The `shrt` command line: `shrt <command> [flags]`.
//
// Commands(): each command's summary, usage and flags (`shrt --help`,
// `shrt <command> --help`). --load (validate, discover, coverage) loads
// custom-op libraries first (tools/load_libraries.h, shrt/plugin.h).
//
// Flags are Abseil flags, parsed here so that every usage error (unknown
// command or flag, bad value) exits with status 2 and names the flag.
// Relative paths are relative to the workspace under `bazel run`
// ($BUILD_WORKSPACE_DIRECTORY), so the CLI reads the specs being edited,
// else to the current directory. This library holds main(); a downstream
// repository links it with its own strategy libraries into its own `shrt`
// binary.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "shrt/engine/spec_tree.h"
#include "shrt/engine/torch_runtime.h"
#include "shrt/strategies/registry.h"
#include "shrt/vocab/suggest.h"
#include "tools/coverage_command.h"
#include "tools/discover_command.h"
#include "tools/groups_command.h"
#include "tools/load_libraries.h"
#include "tools/validate_command.h"
#include "tools/xfail_command.h"
#include "torch/version.h"

ABSL_FLAG(std::vector<std::string>, op, {},
          "Overloads, comma-separated, e.g. aten::mul.Tensor,aten::relu");
ABSL_FLAG(bool, all, false, "Validate every overload that has a spec and a strategy");
ABSL_FLAG(std::vector<std::string>, spec, {}, "Spec files to validate, comma-separated");
ABSL_FLAG(std::string, strategies, "",
          "A strategy table (shrt/strategies/table.proto) to validate instead of the registered strategies");
ABSL_FLAG(bool, dtensor, false,
          "Validate the rules the installed torch's DTensor registers instead of the registered "
          "strategies");
ABSL_FLAG(std::vector<std::string>, dtensor_rules, {},
          "With --dtensor: Python files, comma-separated, run before DTensor is asked; they "
          "register DTensor strategies (e.g. register_single_dim_strategy for --load's ops)");
ABSL_FLAG(int, world_size, 4, "World size W of the simulated 1-D mesh (2 .. 64)");
ABSL_FLAG(std::string, mesh, "",
          "An N-D mesh instead of --world_size, e.g. 2x2 or 2x2x2 (up to 3 dims, 64 ranks): "
          "validate each strategy expanded to it as DTensor expands it");
ABSL_FLAG(std::string, format, "text", "Report format: text or json");
ABSL_FLAG(
    std::string, html, "",
    "Also write the report as one self-contained HTML file (placement matrices) to this path");
ABSL_FLAG(std::vector<std::string>, load, {},
          "Custom-op libraries to load first, comma-separated: they register operators with "
          "TORCH_LIBRARY and strategies with SHRT_PLUGIN_STRATEGY (shrt/plugin.h)");
ABSL_FLAG(bool, quiet, false, "No progress line on a terminal");
ABSL_FLAG(std::string, spec_dir, "op_specs", "Root of the spec tree (*.textproto below it)");
ABSL_FLAG(std::string, recipe_dir, "",
          "Directory of recipe files; when empty, <spec_dir>/recipes (ShRT's own recipes when the "
          "default spec tree op_specs/ does not exist)");
ABSL_FLAG(uint64_t, seed, 0, "Base seed of every generator and Partial draw");
ABSL_FLAG(int, redraws, 3, "Independent redraws of the parts of Partial inputs");
ABSL_FLAG(int, jobs, 0, "Overloads validated in parallel; 0 means one per core");
ABSL_FLAG(absl::Duration, call_time_limit, absl::Seconds(60),
          "Wall time one operator call may take before it counts as crashed, e.g. 60s, 500ms");
ABSL_FLAG(std::string, namespace, "", "Only this namespace of the dispatcher, e.g. aten");
ABSL_FLAG(bool, uncovered, false,
          "Also list the checkable overloads that are not checked, by family");
ABSL_FLAG(std::string, file, "op_specs/xfails.textproto", "The xfails file");
ABSL_FLAG(std::string, rule, "", "A rule, e.g. 'S(0), R -> S(0)'");
ABSL_FLAG(bool, all_rules, false, "The xfail covers every rule of the overload");
ABSL_FLAG(std::string, reason, "", "Why the rule is wrong and tolerated");
ABSL_FLAG(std::string, issue, "", "Link to the tracking issue");
ABSL_FLAG(std::string, expires, "", "Date after which the xfail fails, YYYY-MM-DD");
ABSL_FLAG(bool, write, false, "Replace <spec_dir>/groups.bzl instead of printing it");

namespace {

// ShRT's version; the libtorch version comes from its torch/version.h.
constexpr char kShrtVersion[] = "0.17.0";

// One command of the CLI: what it does, its usage lines (continuation
// lines indented) and the flags it accepts, in the order its --help lists
// them. The one home of each command's usage and flags.
struct Command {
  std::string summary;
  std::string usage;
  std::vector<std::string> flags;
};

// In the order `shrt --help` lists them.
const std::vector<std::pair<std::string, Command>>& Commands() {
  static const auto* commands = new std::vector<std::pair<std::string, Command>>{
      {"validate",
       {"Check registered strategies (or a --strategies table, or DTensor's rules with --dtensor) "
        "against ground truth on simulated ranks.",
        "shrt validate (--op=OVERLOAD[,...] | --all | --spec=FILE[,...])\n"
        "              [--strategies=TABLE | --dtensor [--dtensor_rules=FILE.py[,...]]]\n"
        "              [--world_size=N | --mesh=W0xW1[xW2]] [--format=text|json] [--html=FILE]\n"
        "              [--load=LIB.so[,...]] [--spec_dir=DIR] [--recipe_dir=DIR] [--seed=N]\n"
        "              [--redraws=N] [--jobs=N] [--call_time_limit=DURATION] [--quiet]",
        {"op", "all", "spec", "strategies", "dtensor", "dtensor_rules", "world_size", "mesh",
         "format", "html", "load", "spec_dir", "recipe_dir", "seed", "redraws", "jobs", "call_time_limit", "quiet"}}},
      {"discover",
       {"Find the valid rules of one overload by ground truth and synthesise symbolic rules.",
        "shrt discover (--op=OVERLOAD | --spec=FILE) [--world_size=N]\n"
        "              [--format=text|json|textproto|cc|python] [--load=LIB.so[,...]] [--spec_dir=DIR]\n"
        "              [--recipe_dir=DIR] [--seed=N] [--redraws=N] [--call_time_limit=DURATION]",
        {"op", "spec", "world_size", "format", "load", "spec_dir", "recipe_dir", "seed", "redraws",
         "call_time_limit"}}},
      {"coverage",
       {"Count the dispatcher's overloads against specs and registered strategies.",
        "shrt coverage [--namespace=NS] [--uncovered] [--format=text|json] [--load=LIB.so[,...]]\n"
        "              [--spec_dir=DIR] [--recipe_dir=DIR]",
        {"namespace", "uncovered", "format", "load", "spec_dir", "recipe_dir"}}},
      {"groups",
       {"Print (or --write) the op-group manifest <spec_dir>/groups.bzl.",
        "shrt groups [--write] [--spec_dir=DIR] [--recipe_dir=DIR]",
        {"write", "spec_dir", "recipe_dir"}}},
      {"xfail",
       {"List, add or remove expected failures of rules.",
        "shrt xfail list [--op=OVERLOAD] [--file=FILE]\n"
        "shrt xfail add --op=OVERLOAD (--rule=RULE | --all_rules) --reason=TEXT --issue=URL\n"
        "               [--expires=YYYY-MM-DD] [--file=FILE]\n"
        "shrt xfail remove --op=OVERLOAD (--rule=RULE | --all_rules) [--file=FILE]",
        {"op", "file", "rule", "all_rules", "reason", "issue", "expires"}}},
  };
  return *commands;
}

// The usage lines of every command: "usage: shrt validate ...".
std::string Usage() {
  std::string out;
  for (const auto& [name, command] : Commands()) {
    for (absl::string_view line : absl::StrSplit(command.usage, '\n')) {
      absl::StrAppend(&out, out.empty() ? "usage: " : "       ", line, "\n");
    }
  }
  return absl::StrCat(out, "       shrt <command> --help | shrt --version\n");
}

// The command named `name`, or nullptr.
const Command* FindCommand(absl::string_view name) {
  for (const auto& [command_name, command] : Commands()) {
    if (command_name == name) return &command;
  }
  return nullptr;
}

// `shrt <command> --help`: the command's summary, usage and every flag it
// accepts with its help text and default, from Abseil's flag registry.
std::string CommandHelp(const std::string& name) {
  const Command& command = *FindCommand(name);
  std::string out = absl::StrCat(command.summary, "\n\n");
  bool first = true;
  for (absl::string_view line : absl::StrSplit(command.usage, '\n')) {
    absl::StrAppend(&out, first ? "usage: " : "       ", line, "\n");
    first = false;
  }
  absl::StrAppend(&out, "\nflags:\n");
  for (const std::string& flag_name : command.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(flag_name);
    if (flag == nullptr) continue;  // every name in Commands() is a flag (shrt_cli_test.sh)
    const std::string value = flag->DefaultValue();
    absl::StrAppend(&out, "  --", flag_name, "\n      ", flag->Help(),
                    "\n      default: ", value.empty() ? "none" : value, "\n");
  }
  return out;
}

// "shrt 0.17.0, libtorch 2.13.0".
std::string Version() {
  return absl::StrCat("shrt ", kShrtVersion, ", libtorch ", TORCH_VERSION, "\n");
}

// The command names.
std::vector<std::string> CommandNames() {
  std::vector<std::string> out;
  for (const auto& [name, command] : Commands()) out.push_back(name);
  return out;
}

// Parses "--name=value" / "--name value" / "--bool_flag" into Abseil flags,
// accepting only `allowed`. Returns "" or an error naming the flag.
std::string ParseFlags(const std::vector<std::string>& args,
                       const std::vector<std::string>& allowed) {
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
    const bool known = std::find(allowed.begin(), allowed.end(), name) != allowed.end();
    absl::CommandLineFlag* flag = known ? absl::FindCommandLineFlag(name) : nullptr;
    if (flag == nullptr) {
      const std::vector<std::string> close = shrt::CloseMatches(name, allowed, 1);
      return absl::StrCat("unknown flag --", name,
                          close.empty() ? "" : absl::StrCat("; did you mean --", close[0], "?"));
    }
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
    if (!flag->ParseFrom(value, &error)) return absl::StrCat("flag --", name, ": ", error);
  }
  return "";
}

// `path` resolved against the workspace under `bazel run`.
std::string InWorkspace(const std::string& path) {
  const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  if (path.empty() || path[0] == '/' || ws == nullptr) return path;
  return absl::StrCat(ws, "/", path);
}

// --spec_dir, resolved.
std::string SpecDir() { return InWorkspace(absl::GetFlag(FLAGS_spec_dir)); }

// `path` of ShRT's workspace in this binary's runfiles (the data of
// //tools:shrt_main): <runfiles>/shrt/<path>, in ShRT's workspace and in a
// downstream one alike (@shrt's runfiles are under "shrt/" there too).
// Under `bazel test` the test's runfiles ($TEST_SRCDIR) hold them. Empty
// when this binary's path cannot be read.
std::string InRunfiles(absl::string_view path) {
  for (const char* var : {"RUNFILES_DIR", "TEST_SRCDIR"}) {
    if (const char* dir = std::getenv(var); dir != nullptr && *dir != '\0') {
      return absl::StrCat(dir, "/shrt/", path);
    }
  }
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "" : absl::StrCat(exe.string(), ".runfiles/shrt/", path);
}

// ShRT's own recipes.
std::string StockRecipeDir() { return InRunfiles("op_specs/recipes"); }

// --recipe_dir, resolved; when it is not given, the spec tree's own
// recipes, so that --spec_dir=DIR alone reads DIR/recipes (spec_loader.h;
// a tree without them is an error). Only the default tree, op_specs/, when
// the workspace has none (a downstream workspace's `bazel run`), takes
// ShRT's own recipes, as the generated tests do (codegen/op_test.bzl).
std::string RecipeDir() {
  const std::string flag = absl::GetFlag(FLAGS_recipe_dir);
  if (!flag.empty()) return InWorkspace(flag);
  const std::string own = shrt::DefaultRecipeDir(SpecDir());
  const absl::CommandLineFlag* spec_dir = absl::FindCommandLineFlag("spec_dir");
  if (std::filesystem::exists(own) || absl::GetFlag(FLAGS_spec_dir) != spec_dir->DefaultValue()) {
    return own;
  }
  const std::string stock = StockRecipeDir();
  return !stock.empty() && std::filesystem::is_directory(stock) ? stock : own;
}

// Runs the command line `argv` and returns its exit status (the kExit*
// codes); every command has written its output when it returns.
int Run(int argc, char** argv) {
  shrt::UseGroundTruthRuntime();  // before any tensor work (torch_runtime.h)
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << Usage();
    return shrt::kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || (args[0] == "help" && args.size() == 1)) {
    std::cout << Usage() << "\nRun 'shrt <command> --help' for a command's flags.\n";
    return shrt::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << Version();
    return shrt::kExitOk;
  }
  if (args[0] == "help") args = {args[1], "--help"};  // shrt help validate
  const std::string command = args[0];
  const Command* allowed = FindCommand(command);
  if (allowed == nullptr) {
    const std::vector<std::string> close = shrt::CloseMatches(command, CommandNames(), 1);
    shrt::UsageError(
        std::cerr, "",
        absl::StrCat("unknown command '", command, "'",
                     close.empty() ? "" : absl::StrCat("; did you mean ", close[0], "?")));
    std::cerr << Usage();
    return shrt::kExitUsage;
  }
  if (std::any_of(args.begin() + 1, args.end(),
                  [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    std::cout << CommandHelp(command);
    return shrt::kExitOk;
  }
  size_t first_flag = 1;
  std::string action;
  if (command == "xfail") {
    if (args.size() < 2 || absl::StartsWith(args[1], "--")) {
      shrt::UsageError(std::cerr, "xfail", "give an action: add, remove or list");
      std::cerr << Usage();
      return shrt::kExitUsage;
    }
    action = args[1];
    first_flag = 2;
    const std::vector<std::string> actions = {"add", "list", "remove"};
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) {
      const std::vector<std::string> close = shrt::CloseMatches(action, actions, 1);
      shrt::UsageError(
          std::cerr, "xfail",
          absl::StrCat("unknown action '", action, "'",
                       close.empty() ? "" : absl::StrCat("; did you mean ", close[0], "?"),
                       " (add, remove or list)"));
      std::cerr << Usage();
      return shrt::kExitUsage;
    }
  }
  if (std::string error = ParseFlags({args.begin() + first_flag, args.end()}, allowed->flags);
      !error.empty()) {
    shrt::UsageError(std::cerr, command, error);
    std::cerr << Usage();
    return shrt::kExitUsage;
  }
  std::vector<std::string> libraries;
  for (const std::string& path : absl::GetFlag(FLAGS_load)) libraries.push_back(InWorkspace(path));
  if (absl::Status s = shrt::LoadLibraries(libraries); !s.ok()) {
    return shrt::UsageError(std::cerr, command, s.message());
  }
  if (command == "xfail") {
    shrt::XfailCommand cmd;
    cmd.action = action;
    cmd.file = InWorkspace(absl::GetFlag(FLAGS_file));
    const std::vector<std::string> ops = absl::GetFlag(FLAGS_op);
    if (ops.size() > 1) {
      return shrt::UsageError(std::cerr, "xfail", "--op takes one overload");
    }
    cmd.op = ops.empty() ? "" : ops[0];
    cmd.rule = absl::GetFlag(FLAGS_rule);
    cmd.all_rules = absl::GetFlag(FLAGS_all_rules);
    cmd.reason = absl::GetFlag(FLAGS_reason);
    cmd.issue = absl::GetFlag(FLAGS_issue);
    cmd.expires = absl::GetFlag(FLAGS_expires);
    return shrt::RunXfail(cmd, std::cout, std::cerr);
  }
  if (command == "discover") {
    shrt::DiscoverCommand cmd;
    const std::vector<std::string> ops = absl::GetFlag(FLAGS_op);
    const std::vector<std::string> specs = absl::GetFlag(FLAGS_spec);
    if (ops.size() > 1 || specs.size() > 1) {
      return shrt::UsageError(std::cerr, "discover", "give one overload or one spec");
    }
    cmd.op = ops.empty() ? "" : ops[0];
    cmd.spec = specs.empty() ? "" : InWorkspace(specs[0]);
    cmd.world_size = absl::GetFlag(FLAGS_world_size);
    cmd.format = absl::GetFlag(FLAGS_format);
    cmd.spec_dir = SpecDir();
    cmd.recipe_dir = RecipeDir();
    cmd.seed = absl::GetFlag(FLAGS_seed);
    cmd.redraws = absl::GetFlag(FLAGS_redraws);
    cmd.call_time_limit = absl::GetFlag(FLAGS_call_time_limit);
    cmd.python_strategy_program = InRunfiles("tools/dtensor/python_strategy.py");
    return shrt::RunDiscover(cmd, std::cout, std::cerr);
  }
  if (command == "coverage") {
    shrt::CoverageCommand cmd;
    cmd.ns = absl::GetFlag(FLAGS_namespace);
    cmd.uncovered = absl::GetFlag(FLAGS_uncovered);
    cmd.format = absl::GetFlag(FLAGS_format);
    cmd.spec_dir = SpecDir();
    cmd.recipe_dir = RecipeDir();
    return shrt::RunCoverage(cmd, shrt::StrategyRegistry::Global(), std::cout, std::cerr);
  }
  if (command == "groups") {
    shrt::GroupsCommand cmd;
    cmd.write = absl::GetFlag(FLAGS_write);
    cmd.spec_dir = SpecDir();
    cmd.recipe_dir = RecipeDir();
    return shrt::RunGroups(cmd, std::cout, std::cerr);
  }
  const bool world_size_given = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return absl::StartsWith(a, "--world_size");
  });
  if (world_size_given && !absl::GetFlag(FLAGS_mesh).empty()) {
    return shrt::UsageError(
        std::cerr, "validate",
        "give --world_size=N (a 1-D mesh) or --mesh=W0xW1 (an N-D one), not both");
  }
  shrt::ValidateCommand cmd;
  cmd.ops = absl::GetFlag(FLAGS_op);
  cmd.all = absl::GetFlag(FLAGS_all);
  for (const std::string& spec : absl::GetFlag(FLAGS_spec)) cmd.specs.push_back(InWorkspace(spec));
  cmd.strategies = InWorkspace(absl::GetFlag(FLAGS_strategies));
  cmd.dtensor = absl::GetFlag(FLAGS_dtensor);
  cmd.dtensor_program = InRunfiles("tools/dtensor/export_claims.py");
  for (const std::string& path : absl::GetFlag(FLAGS_dtensor_rules)) {
    cmd.dtensor_rules.push_back(InWorkspace(path));
  }
  cmd.world_size = absl::GetFlag(FLAGS_world_size);
  cmd.mesh = absl::GetFlag(FLAGS_mesh);
  cmd.format = absl::GetFlag(FLAGS_format);
  cmd.html = InWorkspace(absl::GetFlag(FLAGS_html));
  cmd.quiet = absl::GetFlag(FLAGS_quiet);
  cmd.load = libraries;
  cmd.spec_dir = SpecDir();
  cmd.recipe_dir = RecipeDir();
  cmd.seed = absl::GetFlag(FLAGS_seed);
  cmd.redraws = absl::GetFlag(FLAGS_redraws);
  cmd.jobs = absl::GetFlag(FLAGS_jobs);
  cmd.call_time_limit = absl::GetFlag(FLAGS_call_time_limit);
  return shrt::RunValidate(cmd, shrt::StrategyRegistry::Global(), std::cout, std::cerr);
}

}  // namespace

// Exits without libtorch's teardown (torch_runtime.h ExitWithoutTeardown).
int main(int argc, char** argv) { shrt::ExitWithoutTeardown(Run(argc, argv)); }
