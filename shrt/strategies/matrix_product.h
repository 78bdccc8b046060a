// The algebra of a matrix product P = A @ B and of the fused
// beta * self + alpha * P, shared by the matrix family's sources
// (matrix.cc, matrix_einsum.cc): given where each output and contracted dim
// sits in A and B (ProductDims), the rules of the product alone
// (PlainProduct) and with self added (AddProduct, from SelfOptions and
// SelfPartialRules). Internal to the family's matrix*.cc files.
//
// Product rules (DTensor's _matrix_ops.py, from the einsum view of A @ B):
//   - an output dim that A (and/or B) carries shards through: A and B are
//     sharded on that dim where they have it, replicated where they do not
//     (mm: S(0), R -> S(0); R, S(1) -> S(1); bmm's batch: S(0), S(0) -> S(0));
//   - the contracted dim sharded on both gives the local partial sums:
//     S(k_A), S(k_B) -> P(sum) (a rank past the end contracts an empty
//     chunk and contributes zeros);
//   - the product is bilinear: P(sum), R -> P(sum), R, P(sum) -> P(sum),
//     and the same with P(avg).
//   No rule holds for P(max|min|product): a sum of products is not monotone
//   or multiplicative in one factor.
//
// With self (out = beta * self + alpha * P, self broadcast to P's shape):
//   - shard rules: self follows the output dim where it has that dim with
//     the output's size, and is replicated where it broadcasts (both work
//     on a size-1 output dim);
//   - P(sum) product: the per-rank results sum to beta * sum(self_r) +
//     alpha * P, so self must be P(sum) too (a replicated self would be
//     counted W times);
//   - P(avg) product: the mean over ranks is beta * mean(self_r) + alpha *
//     P, so self may be P(avg) or R;
//   - product replicated: beta * self_r + alpha * P is affine in self_r:
//     P(avg) -> P(avg); increasing when beta > 0 (P(max) -> P(max),
//     P(min) -> P(min)), decreasing when beta < 0 (P(max) -> P(min), ...).
//     P(sum) self alone would count alpha * P W times: not claimed.
//
// When every contracted dim has size 1 (or none is contracted) the product
// is an outer product, elementwise multiplicative in each factor:
// P(product), P(product) -> P(product) (mm, bmm, mv, dot, outer, inner,
// matmul, linear without bias; not with an added self).
//
// libtorch 1.13 quirk: addmv with an empty local mat (a rank past the end of
// a sharded dim of mat) returns beta * self in self's own shape instead of
// broadcasting it to the (empty) output, so a rule that shards mat needs a
// self of the local output's shape on every rank: sharded with the output
// (S(0)), or full-shaped when the output is Partial. Some world size always
// leaves a rank with an empty chunk. Seen as `R, S(0), R -> S(0)` giving
// shape [1] instead of [0] on rank 3 of 4 for self [1], mat [6, 1].
#ifndef SHRT_STRATEGIES_MATRIX_PRODUCT_H_
#define SHRT_STRATEGIES_MATRIX_PRODUCT_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "shrt/ops/op_args.h"
#include "shrt/vocab/placement.h"

namespace shrt {
namespace matrix_internal {

// The dim structure of A @ B: for each output dim, the dim of A and of B
// that carries it (-1 where that factor lacks it), and the contracted dims.
struct ProductDims {
  std::vector<std::pair<int64_t, int64_t>> out_dims;
  // Pairs (dim of A, dim of B) summed over; empty for an outer product.
  std::vector<std::pair<int64_t, int64_t>> contracted;
};

// S(dim), or R for dim -1 (a factor that lacks the output dim).
Placement ShardOrR(int64_t dim);

// The rules of A @ B (mm, bmm, mv, dot, ...): inputs (A, B), one output;
// the shard and P(sum|avg) rules of `dims`, and P(product) on both when
// every contracted dim has size 1. Only the rules that apply to `args`.
std::vector<Rule> PlainProduct(const OpArgs& args, const ProductDims& dims);

// The placements of self (broadcast to the output `out`) that go with a
// product placed `prod` in beta * self + alpha * product.
std::vector<Placement> SelfOptions(const TensorMeta& self, const TensorMeta& out, const Placement& prod);

// (self, output) placements with the product replicated: beta * self + c
// is affine in self.
std::vector<std::pair<Placement, Placement>> SelfPartialRules(double beta);

// Where self, A and B sit among the inputs of an op with self.
struct AddOrder {
  size_t self, a, b;
};
inline constexpr AddOrder kSelfFirst{0, 1, 2};  // addmm(self, mat1, mat2), ...
inline constexpr AddOrder kBiasLast{2, 0, 1};   // linear(input, weight, bias)

// addmm, addmv, baddbmm, addbmm, addr, linear: inputs self, A, B (in
// `order`), one output. `empty_mat_breaks_broadcast` (addmv) keeps only the
// rules that give self its local output's shape wherever A is sharded (the
// libtorch quirk above).
std::vector<Rule> AddProduct(const OpArgs& args, const ProductDims& dims,
                             bool empty_mat_breaks_broadcast, const AddOrder& order = kSelfFirst);

}  // namespace matrix_internal
}  // namespace shrt

#endif  // SHRT_STRATEGIES_MATRIX_PRODUCT_H_
