// The shrt binary's side of shrt/plugin.h: the function a loaded custom-op
// library calls to register a strategy, and how many it has called.
//
// shrt_plugin_register_strategy_v1 (declared in shrt/plugin.h, defined in
// plugin_registration.cc) wraps a plugin strategy as a shrt::Strategy and
// adds it to StrategyRegistry::Global(); errors are recorded there and
// reported by StrategyRegistry::Check(). The binary exports the symbol to
// dlopen'ed libraries (the -Wl,--export-dynamic-symbol of
// //tools:load_libraries).
#ifndef TOOLS_PLUGIN_REGISTRATION_H_
#define TOOLS_PLUGIN_REGISTRATION_H_

#include "shrt/plugin.h"
#include "shrt/strategies/strategy.h"

namespace shrt {

// Calls of shrt_plugin_register_strategy_v1 so far, in this process.
int PluginRegistrations();

// `strategy` as a shrt::Strategy: it sees the sample's OpArgs through
// plugin::Args and its rule texts are parsed with ParseRule
// (shrt/vocab/placement.h). The returned strategy's errors: InvalidArgument
// naming the rule text that does not parse, or the exception the plugin
// strategy threw.
Strategy FromPlugin(plugin::Strategy strategy);

}  // namespace shrt

#endif  // TOOLS_PLUGIN_REGISTRATION_H_
