#include "shrt/report/checkability.h"

#include "ATen/core/dispatch/Dispatcher.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

c10::OperatorName Op(const char* text) { return *ParseOverloadName(text); }

UncheckableCategory CategoryOfName(const char* text) {
  const c10::optional<c10::OperatorHandle> op = c10::Dispatcher::singleton().findSchema(Op(text));
  EXPECT_TRUE(op.has_value()) << text;
  return op.has_value() ? Classify(FactsOf(*op)) : UNCHECKABLE_CATEGORY_UNSPECIFIED;
}

// Facts of libtorch 2.13's own overloads (native_functions.yaml). 2.13 has
// no named-tensor (Dimname) overload left: ClassifyTakesTheFirstCategory-
// ThatApplies covers NAMED_TENSOR (1.13's sum.dim_DimnameList and
// mean.names_dim were in it).
TEST(CheckabilityTest, FactsOfRealOverloads) {
  EXPECT_EQ(CategoryOfName("aten::add.Tensor"), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  EXPECT_EQ(CategoryOfName("aten::add_.Tensor"), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  EXPECT_EQ(CategoryOfName("aten::add.out"), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  // Lists written in place, returning nothing: DTensor shards them.
  EXPECT_EQ(CategoryOfName("aten::_foreach_add_.List"), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  EXPECT_EQ(CategoryOfName("aten::native_layer_norm_backward"), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  EXPECT_EQ(CategoryOfName("aten::bernoulli"), RANDOM);  // Generator? generator
  EXPECT_EQ(CategoryOfName("aten::_coalesce"), SPARSE_LAYOUT);
  EXPECT_EQ(CategoryOfName("aten::q_scale"), QUANTIZED);
  EXPECT_EQ(CategoryOfName("aten::cudnn_convolution"), BACKEND_ONLY);
  // A generated composite out= kernel still needs cuDNN's tensors.
  EXPECT_EQ(CategoryOfName("aten::cudnn_convolution.out"), BACKEND_ONLY);
  EXPECT_EQ(CategoryOfName("aten::to_sparse"), SPARSE_LAYOUT);
  EXPECT_EQ(CategoryOfName("aten::arange"), FACTORY);
  EXPECT_EQ(CategoryOfName("aten::is_nonzero"), METADATA_QUERY);  // -> bool
}

TEST(CheckabilityTest, ClassifyTakesTheFirstCategoryThatApplies) {
  OverloadFacts f;
  f.tensor_input = f.tensor_output = f.dense_cpu_kernel = true;
  EXPECT_EQ(Classify(f), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  OverloadFacts factory = f;
  factory.tensor_input = false;
  EXPECT_EQ(Classify(factory), FACTORY);
  factory.generator = true;  // rand: random before factory
  EXPECT_EQ(Classify(factory), RANDOM);
  OverloadFacts sparse = f;
  sparse.sparse_kernel = true;  // a dense kernel too: checkable
  EXPECT_EQ(Classify(sparse), UNCHECKABLE_CATEGORY_UNSPECIFIED);
  sparse.dense_cpu_kernel = false;
  EXPECT_EQ(Classify(sparse), SPARSE_LAYOUT);
  OverloadFacts cuda = f;
  cuda.dense_cpu_kernel = false;
  EXPECT_EQ(Classify(cuda), BACKEND_ONLY);
  OverloadFacts query = f;
  query.tensor_output = false;
  EXPECT_EQ(Classify(query), METADATA_QUERY);
  OverloadFacts named = f;
  named.named = true;  // libtorch 1.13's sum.dim_DimnameList
  EXPECT_EQ(Classify(named), NAMED_TENSOR);
}

TEST(CheckabilityTest, CategoryTextIsLowerCaseWords) {
  EXPECT_EQ(CategoryText(UNCHECKABLE_CATEGORY_UNSPECIFIED), "checkable");
  EXPECT_EQ(CategoryText(DATA_DEPENDENT_SHAPE), "data dependent shape");
  EXPECT_EQ(CategoryText(BACKEND_ONLY), "backend only");
}

TEST(CheckabilityTest, FileEntriesNameAnOperatorOrOneOverload) {
  absl::StatusOr<NotCheckableFile> file = NotCheckableFile::Parse(
      "entry { op: \"aten::nonzero\" category: DATA_DEPENDENT_SHAPE reason: \"values\" }\n"
      "entry { op: \"aten::empty_like.default\" category: UNINITIALIZED_OUTPUT reason: \"x\" }\n",
      "nc.textproto");
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_NE(file->Find(Op("aten::nonzero")), nullptr);
  ASSERT_NE(file->Find(Op("aten::nonzero.out")), nullptr);  // every overload
  EXPECT_EQ(file->Find(Op("aten::nonzero.out"))->category(), DATA_DEPENDENT_SHAPE);
  EXPECT_NE(file->Find(Op("aten::empty_like")), nullptr);
  EXPECT_EQ(file->Find(Op("aten::empty_like.out")), nullptr);  // that overload only
  EXPECT_EQ(file->Find(Op("aten::relu")), nullptr);

  const c10::optional<c10::OperatorHandle> nonzero =
      c10::Dispatcher::singleton().findSchema(Op("aten::nonzero"));
  ASSERT_TRUE(nonzero.has_value());
  EXPECT_EQ(CategoryOf(*nonzero, *file), DATA_DEPENDENT_SHAPE);
}

TEST(CheckabilityTest, BadEntriesNameTheFileLineAndField) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"entry { op: \"aten::no_such_op\" category: RANDOM reason: \"r\" }",
       "nc.textproto:1: field 'entry[0].op': the dispatcher has no operator 'aten::no_such_op'"},
      {"entry { op: \"aten::relu.nope\" category: RANDOM reason: \"r\" }",
       "field 'entry[0].op': the dispatcher has no overload 'aten::relu.nope'"},
      {"entry { op: \"aten::relu\" category: RANDOM reason: \"r\" }\n"
       "entry {\n op: \"aten::relu\" category: RANDOM reason: \"r\" }",
       "nc.textproto:3: field 'entry[1].op': 'aten::relu' is named twice"},
      {"entry { op: \"aten::relu\" reason: \"r\" }", "field 'entry[0].category': required"},
      {"entry { op: \"aten::relu\" category: RANDOM reason: \" \" }",
       "field 'entry[0].reason': required"},
      {"entry { op: \"aten::relu\" category: SOMETHING }", "nc.textproto:1:"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<NotCheckableFile> file = NotCheckableFile::Parse(c.text, "nc.textproto");
    ASSERT_FALSE(file.ok()) << c.text;
    EXPECT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(file.status().message()), HasSubstr(c.error));
  }
}

}  // namespace
}  // namespace shrt
