#include "shrt/engine/list_elements.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "ATen/core/dispatch/Dispatcher.h"
#include "absl/strings/str_cat.h"
#include "shrt/engine/compare.h"
#include "shrt/engine/full_case.h"
#include "shrt/engine/sample_schema.h"

namespace shrt {
namespace {

// Why `alone` (element tensor) is not exactly `whole`, or "".
std::string Differs(const at::Tensor& alone, const at::Tensor& whole) {
  if (alone.scalar_type() != whole.scalar_type()) {
    return absl::StrCat("dtype ", c10::toString(alone.scalar_type()), " vs ",
                        c10::toString(whole.scalar_type()));
  }
  const Comparison c = CompareTensors(alone, whole, Tolerance{0, 0});
  return c.equal ? "" : c.detail;
}

// True if `spec`'s overload takes a Scalar[] named `name`.
bool IsScalarList(const LoadedSpec& spec, const std::string& name) {
  const std::optional<c10::OperatorHandle> op = c10::Dispatcher::singleton().findOp(spec.op());
  if (!op.has_value() || !op->hasSchema()) return false;
  const std::optional<int> index = op->schema().argumentIndexWithName(name);
  return index.has_value() &&
         sample_internal::Classify(op->schema().arguments()[*index]).kind == sample_internal::ArgKind::kScalarList;
}

}  // namespace

// BoundSample::ListElements (sample.h), beside its one caller.
absl::StatusOr<std::vector<ListElement>> BoundSample::ListElements(const LoadedSpec& spec,
                                                                   int s) const {
  std::vector<ListElement> out;
  int length = -1;
  for (size_t i = 0; i < list_sizes_.size(); ++i) {
    if (list_sizes_[i] < 0 || static_cast<int>(i) == out_list_) continue;
    if (length >= 0 && list_sizes_[i] != length) return out;
    length = list_sizes_[i];
  }
  if (length < 2) return out;
  for (int k = 0; k < length; ++k) {
    Sample cut = bound_;
    for (Arg& a : *cut.mutable_arg()) {
      // A Scalar[] of one value per element (`_foreach_add.ScalarList`'s
      // scalars): the element's own value.
      if (a.has_float_list() && a.float_list().value_size() == length) {
        const double value = a.float_list().value(k);
        a.mutable_float_list()->clear_value();
        a.mutable_float_list()->add_value(value);
        continue;
      }
      if (a.has_int_list() && a.int_list().value_size() == length && IsScalarList(spec, a.name())) {
        const int64_t value = a.int_list().value(k);
        a.mutable_int_list()->clear_value();
        a.mutable_int_list()->add_value(value);
        continue;
      }
      if (!a.has_tensors()) continue;
      TensorArg element = a.tensors().tensor(k);
      a.mutable_tensors()->clear_tensor();
      *a.mutable_tensors()->add_tensor() = std::move(element);
    }
    absl::StatusOr<BoundSample> bound =
        Bind(spec, s, cut, where_, absl::StrCat(name_, " (list element ", k, ")"));
    if (!bound.ok()) return bound.status();
    ListElement e;
    for (size_t j = 0; j < bound->slots_.size(); ++j) {
      const Slot& slot = bound->slots_[j];
      const Slot whole{slot.arg, slot.elem < 0 ? -1 : k};
      const auto it = std::find_if(slots_.begin(), slots_.end(), [&](const Slot& x) {
        return x.arg == whole.arg && x.elem == whole.elem;
      });
      const int i = static_cast<int>(it - slots_.begin());
      bound->inputs_[j].label = inputs_[i].label;
      bound->inputs_[j].seed_index = inputs_[i].seed_index;
      e.inputs.push_back(i);
    }
    e.sample = std::make_unique<BoundSample>(*std::move(bound));
    out.push_back(std::move(e));
  }
  return out;
}

absl::StatusOr<ElementSplit> SplitListElements(const LoadedSpec& spec, int s,
                                               const BoundSample& sample,
                                               const TruthOptions& options) {
  ElementSplit split;
  if (!options.split_list_elements) return split;
  absl::StatusOr<std::vector<ListElement>> elements = sample.ListElements(spec, s);
  if (!elements.ok()) return elements.status();
  if (elements->empty()) return split;
  const size_t length = elements->size();
  CaseMaker whole(spec, s, sample, options);
  if (absl::Status st = whole.Init(); !st.ok()) return st;
  std::vector<CaseMaker> alone;
  for (const ListElement& e : *elements) {
    alone.emplace_back(spec, s, *e.sample, options);
    if (absl::Status st = alone.back().Init(); !st.ok()) return st;
  }
  auto judged_whole = [&](std::string why) {
    ElementSplit out;
    out.not_split = absl::StrCat("sample ", sample.name(),
                                 ": judged over the product of its list elements' placements, "
                                 "not per element: ",
                                 std::move(why));
    return out;
  };
  for (size_t g = 0; g < whole.cases(); ++g) {
    if (whole.Repeats(g)) continue;
    absl::StatusOr<FullCase> full = whole.Make(g);
    if (!full.ok()) return full.status();
    // Special values the spec leaves undefined: not called, no case.
    if (full->special_inputs && !spec.proto().special_values_undefined().empty()) continue;
    // The whole call's error is the whole sample's to report.
    if (!full->call.ok()) return ElementSplit{};
    const Tensors& outs = *full->call;
    // Not one output per element (cat, stack): plainly not a list op of
    // this kind, and no note.
    if (outs.empty() || outs.size() % length != 0) return ElementSplit{};
    const size_t per_element = outs.size() / length;
    for (size_t k = 0; k < length; ++k) {
      CaseMaker& maker = alone[k];
      const std::vector<int>& inputs = (*elements)[k].inputs;
      absl::StatusOr<FullCase> one = maker.Make(g);  // the same seed and generators
      if (!one.ok()) return one.status();
      for (size_t j = 0; j < inputs.size(); ++j) {
        if (std::string d = Differs(one->inputs[j], full->inputs[inputs[j]]); !d.empty()) {
          return judged_whole(absl::StrCat("input ", inputs[j], " of list element ", k,
                                           " is drawn differently alone (", d, ")"));
        }
      }
      if (!one->call.ok()) {
        return judged_whole(absl::StrCat("list element ", k, " called alone raises (generator ",
                                         full->generator, "): ", one->call.status().message()));
      }
      if (one->call->size() != per_element) {
        return judged_whole(absl::StrCat("list element ", k, " called alone returns ",
                                         one->call->size(), " outputs, not ", per_element));
      }
      std::vector<int> map;
      for (size_t j = 0; j < per_element; ++j) {
        const size_t o = j * length + k;
        if (std::string d = Differs((*one->call)[j], outs[o]); !d.empty()) {
          return judged_whole(absl::StrCat("output ", j, " of list element ", k,
                                           " called alone differs from the whole call's output ",
                                           o, " (generator ", full->generator, ": ", d, ")"));
        }
        map.push_back(static_cast<int>(o));
      }
      if (g == 0) split.outputs.push_back(std::move(map));
    }
    if (g == 0) split.whole_outputs = outs;
  }
  split.elements = *std::move(elements);
  return split;
}

TruthOptions ElementOptions(const TruthOptions& options, const BoundSample& whole,
                            const ElementSplit& split, size_t e) {
  TruthOptions out = options;
  out.named_placements.clear();
  const auto it = options.named_placements.find(whole.name());
  if (it == options.named_placements.end()) return out;
  NamedPlacements& named = out.named_placements[split.elements[e].sample->name()];
  for (int i : split.elements[e].inputs) {
    named.inputs.push_back(static_cast<size_t>(i) < it->second.inputs.size()
                               ? it->second.inputs[i]
                               : std::vector<Placement>{});
  }
  for (int k : split.outputs[e]) {
    named.outputs.push_back(static_cast<size_t>(k) < it->second.outputs.size()
                                ? it->second.outputs[k]
                                : std::vector<Placement>{});
  }
  return out;
}

}  // namespace shrt
