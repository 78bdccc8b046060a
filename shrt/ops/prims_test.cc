#include "shrt/ops/prims.h"

#include <string>
#include <vector>

#include "ATen/core/Tensor.h"
#include "ATen/core/dispatch/Dispatcher.h"
#include "ATen/core/stack.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/ops/overload_name.h"

namespace shrt {
namespace {

// Calls `op` ("prims::div", "aten::arange.start") boxed, as the engine
// does, its arguments after `args` at their defaults; returns its outputs.
// The test makes its tensors through the dispatcher too: this layer does
// not reach ATen's functions (shrt/spec/aten_functions.h).
std::vector<c10::IValue> Call(const std::string& op, std::vector<c10::IValue> args) {
  const absl::StatusOr<c10::OperatorName> name = ParseOverloadName(op);
  EXPECT_TRUE(name.ok()) << name.status();
  const c10::OperatorHandle handle = c10::Dispatcher::singleton().findSchemaOrThrow(
      name->name.c_str(), name->overload_name.c_str());
  const std::vector<c10::Argument>& params = handle.schema().arguments();
  for (size_t i = args.size(); i < params.size(); ++i) args.push_back(*params[i].default_value());
  torch::jit::Stack stack(args.begin(), args.end());
  handle.callBoxed(&stack);
  return stack;
}

at::Tensor One(const std::string& op, std::vector<c10::IValue> args) {
  return Call(op, std::move(args)).at(0).toTensor();
}

// [start, end) as a 1-d tensor of `dtype`.
at::Tensor Range(int64_t start, int64_t end, c10::ScalarType dtype = c10::kFloat) {
  return One("aten::arange.start", {start, end, dtype});
}

TEST(PrimsTest, EveryPrimAndItsAtenOperatorAreInTheDispatcher) {
  ASSERT_EQ(PrimOps().size(), 38u);
  for (const PrimOp& prim : PrimOps()) {
    const std::string name = PrimName(prim);
    EXPECT_TRUE(c10::Dispatcher::singleton().findSchema({name, ""}).has_value()) << name;
    const absl::StatusOr<c10::OperatorName> aten = ParseOverloadName(prim.aten);
    ASSERT_TRUE(aten.ok()) << aten.status();
    EXPECT_TRUE(c10::Dispatcher::singleton().findSchema(*aten).has_value()) << prim.aten;
  }
}

TEST(PrimsTest, UnaryPrimsAreTheirAtenOperators) {
  const at::Tensor x = Range(-3, 4).div(2);
  EXPECT_TRUE(One("prims::abs", {x}).equal(x.abs()));
  EXPECT_TRUE(One("prims::trunc", {x}).equal(x.trunc()));
  EXPECT_TRUE(One("prims::bessel_i0e", {x}).allclose(One("aten::special_i0e", {x})));
  const std::vector<c10::IValue> frexp = Call("prims::frexp", {x});
  ASSERT_EQ(frexp.size(), 2u);
  EXPECT_TRUE(frexp[0].toTensor().mul(frexp[1].toTensor().exp2()).equal(x));
}

TEST(PrimsTest, DivTruncatesIntegersAndDividesTheRest) {
  const at::Tensor a = Range(-7, 8, c10::kLong);
  const at::Tensor b = a.new_full({15}, 2);
  EXPECT_TRUE(One("prims::div", {a, b}).equal(a.div(b, "trunc")));
  const at::Tensor fa = a.to(c10::kFloat);
  const at::Tensor fb = b.to(c10::kFloat);
  EXPECT_TRUE(One("prims::div", {fa, fb}).equal(fa.div(fb)));
  const at::Tensor t = a.gt(0);
  EXPECT_EQ(One("prims::div", {t, t}).scalar_type(), c10::kFloat);  // bool: true division
}

TEST(PrimsTest, ElementwisePrimsRefuseBroadcastingAndMixedDtypes) {
  const at::Tensor x = Range(0, 6).reshape({2, 3});
  EXPECT_THROW(One("prims::maximum", {x, x.select(0, 0)}), c10::Error);
  EXPECT_THROW(One("prims::maximum", {x, x.to(c10::kDouble)}), c10::Error);
  // A 0-d tensor goes with any shape.
  EXPECT_TRUE(One("prims::maximum", {x, x.new_full({}, 2.5)}).equal(x.clamp_min(2.5)));
}

TEST(PrimsTest, ReductionsCheckTheirDims) {
  const at::Tensor x = Range(1, 7).reshape({2, 3});
  EXPECT_TRUE(One("prims::sum", {x, std::vector<int64_t>{1}}).equal(x.sum(1)));
  // impl_aten's torch.sum reduces every dim for dims = [].
  EXPECT_TRUE(One("prims::sum", {x, std::vector<int64_t>{}}).equal(x.sum()));
  EXPECT_THROW(One("prims::sum", {x, c10::IValue()}), c10::Error);
  EXPECT_THROW(One("prims::sum", {x, std::vector<int64_t>{-1}}), c10::Error);
  EXPECT_THROW(One("prims::sum", {x, std::vector<int64_t>{1}, c10::kDouble}), c10::Error);
  EXPECT_TRUE(One("prims::var", {x, std::vector<int64_t>{1}, 0.0})
                  .allclose(x.var(std::vector<int64_t>{1}, /*correction=*/0)));
}

TEST(PrimsTest, ProdMultipliesOverEachDimAndCopiesForNone) {
  const at::Tensor x = Range(1, 7).reshape({2, 3});
  EXPECT_TRUE(One("prims::prod", {x, std::vector<int64_t>{0, 1}}).equal(x.prod()));
  EXPECT_TRUE(One("prims::prod", {x, std::vector<int64_t>{0}}).equal(x.prod(0)));
  const at::Tensor copy = One("prims::prod", {x, std::vector<int64_t>{}});
  EXPECT_TRUE(copy.equal(x));
  EXPECT_NE(copy.data_ptr(), x.data_ptr());
}

TEST(PrimsTest, CopyToNeedsAsManyElements) {
  const at::Tensor a = Range(0, 6).reshape({2, 3});
  EXPECT_THROW(One("prims::copy_to", {a.clone(), Range(0, 3)}), c10::Error);
  const at::Tensor into = a.new_zeros({2, 3}, c10::kDouble);
  EXPECT_TRUE(One("prims::copy_to", {into, a}).equal(a.to(c10::kDouble)));
  EXPECT_TRUE(into.equal(a.to(c10::kDouble)));
}

TEST(PrimsTest, ConvertElementTypeAndViewOf) {
  const at::Tensor x = Range(-3, 4).div(2);
  EXPECT_TRUE(One("prims::convert_element_type", {x, c10::kLong}).equal(x.to(c10::kLong)));
  const at::Tensor view = One("prims::view_of", {x});
  EXPECT_TRUE(view.is_alias_of(x));
}

}  // namespace
}  // namespace shrt
