// Recipe files (shrt/spec/recipe.proto), as every run reads op_specs/recipes/:
// RecipeSet::FromFiles, with the file named after the recipe it declares
// (a mismatch is refused before anything else is checked). Every generator
// of an accepted recipe then draws small tensors of each kind of dtype
// (Generate), since its parameters come from the same text. Properties: a
// refusal is a bad-input error naming the file; a draw is refused only
// with InvalidArgument and otherwise has the requested shape and dtype.
#include <string>

#include "shrt/fuzz/fuzz_checks.h"
#include "shrt/spec/generators.h"
#include "shrt/spec/recipes.h"
#include "shrt/vocab/text_proto.h"

namespace {

// Index generators read the sample's other arguments: every tensor is
// 4 x 5 and every int argument 1 here.
const shrt::GenContext& Context() {
  static const auto* context = new shrt::GenContext{
      [](absl::string_view) { return std::optional<std::vector<int64_t>>({4, 5}); },
      [](absl::string_view) { return std::optional<int64_t>(1); }};
  return *context;
}

void Draw(const shrt::Generator& gen) {
  // A 0-d tensor, a matrix, and a batch of square ones (positive_definite's).
  const std::vector<std::vector<int64_t>> shapes = {{}, {3, 4}, {2, 3, 3}};
  for (const std::vector<int64_t>& shape : shapes) {
    for (c10::ScalarType dtype : {c10::ScalarType::Float, c10::ScalarType::Long, c10::ScalarType::Bool}) {
      absl::StatusOr<at::Tensor> t = shrt::Generate(gen, shape, dtype, /*input_index=*/1, /*seed=*/0, Context());
      if (!t.ok()) {
        shrt::fuzz::Expect(absl::IsInvalidArgument(t.status()), "a draw is refused as InvalidArgument");
        continue;
      }
      shrt::fuzz::Expect(t->sizes().vec() == shape && t->scalar_type() == dtype,
                         "a draw has the requested shape and dtype");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(shrt::fuzz::AsText(data, size));
  shrt::Recipe declared;
  (void)shrt::ParseTextProto(text, "", &declared);  // only for the name; FromFiles judges the text
  const std::string path = "fuzz/" + (declared.name().empty() ? "unnamed" : declared.name()) + ".textproto";
  absl::StatusOr<shrt::RecipeSet> set = shrt::RecipeSet::FromFiles({{path, text}});
  if (!set.ok()) {
    shrt::fuzz::ExpectInputError(set.status(), path);
    return 0;
  }
  for (const std::string& name : set->Names()) {
    absl::StatusOr<const shrt::Recipe*> recipe = set->Find(name);
    shrt::fuzz::Expect(recipe.ok(), "a recipe of the set is found by its name");
    for (const shrt::Generator& gen : (*recipe)->generator()) Draw(gen);
  }
  return 0;
}
