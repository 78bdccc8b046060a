// List ops judged per list element. An overload whose output k depends
// only on the list inputs at position k (every `_foreach_*` op: DTensor
// itself expands them per element, torch/distributed/tensor/_ops/utils.py
// expanded_foreach_strategy) holds a rule exactly when every element holds
// the rule's part for that element: the placements of element k's tensors
// (and of the tensors every element shares). So ground truth runs each
// element's input tuples once (a sum over elements) instead of the product
// over elements of their tuples (6^6 tuples for a two-element addcmul), and
// a rule's finding is composed from its elements' (ground_truth.h
// SampleTruth::Test).
//
// That output k depends on element k alone is a property the engine
// checks, never a list of names: for every generator, each element called
// alone (a list of length 1) must give exactly the whole call's outputs of
// that element. A sample that fails the check is judged over the product,
// as before, with a note saying why.
#ifndef SHRT_ENGINE_LIST_ELEMENTS_H_
#define SHRT_ENGINE_LIST_ELEMENTS_H_

#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/status/statusor.h"
#include "shrt/engine/ground_truth.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/spec_loader.h"

namespace shrt {

// How one sample splits into its list elements.
struct ElementSplit {
  // Empty when the sample is judged whole: it has no Tensor[] inputs of
  // one length >= 2, the whole call raises, or the check failed.
  std::vector<ListElement> elements;
  // Per element: for each of its outputs, the index of the same output
  // among the whole call's (output j of element k is the whole call's
  // output j * L + k, L the list length).
  std::vector<std::vector<int>> outputs;
  // The whole call's outputs on the first generator's inputs (what a
  // strategy sees of the sample, BoundSample::MakeOpArgs).
  std::vector<at::Tensor> whole_outputs;
  // When the sample has list elements and as many outputs as some number
  // per element, but is judged whole because the check failed: why, e.g. "output 1 of list element 1 called alone
  // differs from the whole call's output 1 (generator randn: at [0]: 2 vs
  // 3)". Empty otherwise.
  std::string not_split;
};

// Splits sample `s` of `spec`, bound as `sample`, into its list elements
// when every generator's whole call and element calls agree as above
// (TruthOptions::split_list_elements false: never). Errors: as
// BoundSample::ListElements, and CaseMaker::Make's (a recipe or generator
// that fails).
absl::StatusOr<ElementSplit> SplitListElements(const LoadedSpec& spec, int s,
                                               const BoundSample& sample,
                                               const TruthOptions& options);

// The TruthOptions for element `e` of `split`: `options` with the
// named-only placements of the whole sample's tensors (by sample name)
// given to the element's own.
TruthOptions ElementOptions(const TruthOptions& options, const BoundSample& whole,
                            const ElementSplit& split, size_t e);

}  // namespace shrt

#endif  // SHRT_ENGINE_LIST_ELEMENTS_H_
