// Placements and rules: the vocabulary of single-dim sharding strategies.
//
// A placement says how one tensor is laid out over one mesh dimension of
// world size W (see DESIGN.md §1):
//
//   R            Replicate: every rank holds the whole tensor.
//   S(d)         Shard(d): rank r holds chunk r along dim d (torch.chunk
//                layout, see mesh.h).
//   P(sum) P(avg) P(max) P(min) P(product)
//                Partial: every rank holds a tensor of the full shape; the
//                logical value is the elementwise reduction over ranks.
//   _NormP(p)    DTensor's _NormPartial(p), the p-norms' partial (p finite,
//                non-zero; torch/distributed/tensor/_ops/_math_ops.py
//                _NormPartial, whose __str__ is "_NormP(p)"): the logical
//                value is (sum_r x_r ** p) ** (1 / p), the rank values
//                raised to p, summed, and raised to 1 / p. Never
//                enumerated: ShRT builds it only for a rule that names it
//                (ground_truth.h TruthOptions::named_placements).
//   _MaskP(op, n) DTensor's _MaskPartial(reduce_op=op, offset_shape,
//                offset_dim) with n = offset_shape[offset_dim], the
//                embedding's and gather's (torch/distributed/tensor/
//                placement_types.py _MaskPartial; _ops/_embedding_ops.py,
//                _ops/_tensor_ops.py gather_strategy). On an index input:
//                rank r holds index - begin_r, 0 where the index lies
//                outside [begin_r, end_r), rank r's torch.chunk range of
//                n (mesh.h ChunkOf; DTensor's _partition_value, the
//                local step of redistributing R to it). On an output:
//                each rank's result zeroed where that input's mask is set
//                (DTensor's MaskBuffer.apply_mask), then reduced by op. The
//                output takes its mask from the input of the same
//                placement in the rule. Named-only, like _NormP(p).
//   _S(d, sf)    _StridedShard(d, split_factor=sf), N-D meshes only
//                (DESIGN.md §9, nd_layout.h): dim d cut into W * sf
//                torch.chunk pieces, rank r holding pieces r, r + W, ...,
//                r + (sf - 1) * W concatenated; DTensor's placement for a
//                tensor dim sharded on an inner mesh dim first (FSDP2 over
//                TP; torch/distributed/tensor/placement_types.py
//                _StridedShard._split_tensor, whose __str__ is "_S(d, sf)").
//
// A rule is one `inputs -> outputs` combination, e.g. `S(1), S(0) -> P(sum)`
// for aten::mm. The canonical text separates placements with ", " and uses
// " -> " as the arrow; ParseRule accepts any whitespace around them and
// RuleToString prints the canonical form, so text round-trips.
//
// Naming follows torch.distributed.tensor.placement_types (Replicate, Shard,
// Partial with reduce_op "sum" | "avg" | "max" | "min" | "product").
#ifndef SHRT_VOCAB_PLACEMENT_H_
#define SHRT_VOCAB_PLACEMENT_H_

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shrt {

// The reduction that combines the per-rank values of a Partial placement.
// kNorm is _NormP(p)'s, whose p the placement holds (Placement::norm_type).
enum class ReduceOp { kSum, kAvg, kMax, kMin, kProduct, kNorm };

// The reduce ops enumeration tries, in canonical order: all but kNorm,
// whose p no enumeration can guess.
inline constexpr ReduceOp kAllReduceOps[] = {ReduceOp::kSum, ReduceOp::kAvg,
                                             ReduceOp::kMax, ReduceOp::kMin,
                                             ReduceOp::kProduct};

// "sum", "avg", "max", "min", "product", "norm".
absl::string_view ReduceOpName(ReduceOp op);

// One tensor's placement on one mesh dimension. A value type; cheap to copy.
//
// A Shard dim may be negative in a strategy's output: it is a *shard
// placeholder* meaning "dim d counted from the end", which the registry
// normalises against the tensor's rank (like DTensor's _ShardingPlaceholder,
// resolved when the rule meets concrete tensor metadata). Placements held by
// the validator are always normalised (0 <= dim < ndim).
class Placement {
 public:
  enum class Kind { kReplicate, kShard, kPartial, kStridedShard };

  static Placement Replicate() { return Placement(Kind::kReplicate, 0, {}); }
  static Placement Shard(int64_t dim) { return Placement(Kind::kShard, dim, {}); }
  // Requires op != kNorm (NormPartial makes those).
  static Placement Partial(ReduceOp op) { return Placement(Kind::kPartial, 0, op); }
  // _NormP(p). Requires a finite, non-zero p (ParsePlacement checks text).
  static Placement NormPartial(double p) {
    return Placement(Kind::kPartial, 0, ReduceOp::kNorm, 0, p);
  }
  // _MaskP(op, n). Requires n >= 1 and op != kNorm (ParsePlacement checks
  // text).
  static Placement MaskPartial(ReduceOp op, int64_t n) {
    return Placement(Kind::kPartial, n, op);
  }
  // Requires split_factor >= 1 (ParsePlacement checks text).
  static Placement StridedShard(int64_t dim, int64_t split_factor) {
    return Placement(Kind::kStridedShard, dim, {}, split_factor);
  }

  Kind kind() const { return kind_; }
  bool is_replicate() const { return kind_ == Kind::kReplicate; }
  bool is_shard() const { return kind_ == Kind::kShard; }
  bool is_partial() const { return kind_ == Kind::kPartial; }
  bool is_strided_shard() const { return kind_ == Kind::kStridedShard; }
  // The sharded dim; meaningful only for Shard and _StridedShard.
  int64_t dim() const { return dim_; }
  // _MaskP(op, n)'s n, the size of the range its chunks split; 0 for
  // every other placement.
  int64_t mask_size() const { return kind_ == Kind::kPartial ? dim_ : 0; }
  bool is_mask_partial() const { return mask_size() > 0; }
  // The reduction; meaningful only for Partial.
  ReduceOp reduce_op() const { return op_; }
  // The split factor; meaningful only for _StridedShard.
  int64_t split_factor() const { return split_factor_; }
  // The p of _NormP(p); 0 for every other placement.
  double norm_type() const { return norm_type_; }
  // True for placements ShRT builds only when a rule names them (_NormP,
  // _MaskP).
  bool is_named_only() const {
    return kind_ == Kind::kPartial && (op_ == ReduceOp::kNorm || dim_ > 0);
  }

  // Canonical text: "R", "S(0)", "P(sum)", "_S(0, 2)", "_NormP(2)",
  // "_MaskP(sum, 10)".
  std::string ToString() const;

  friend bool operator==(const Placement& a, const Placement& b) {
    // p's bits, not a floating compare: p is finite and non-zero, so equal
    // bits are equal values, and an inline floating compare would need
    // __sanitizer_cov_trace_cmpd, which libFuzzer does not define, in
    // every gcc-built fuzz target (shrt/fuzz/fuzz.bzl).
    return a.kind_ == b.kind_ && a.dim_ == b.dim_ && a.op_ == b.op_ &&
           a.split_factor_ == b.split_factor_ &&
           std::bit_cast<uint64_t>(a.norm_type_) == std::bit_cast<uint64_t>(b.norm_type_);
  }
  friend bool operator!=(const Placement& a, const Placement& b) { return !(a == b); }
  // Orders R < S(0) < S(1) < ... < P(sum) < ... < P(product) < _NormP(1)
  // < _NormP(2) < ... < _MaskP(sum, 1) < ... < _S(0, 2)...
  friend bool operator<(const Placement& a, const Placement& b);
  template <typename H>
  friend H AbslHashValue(H h, const Placement& p) {
    return H::combine(std::move(h), p.kind_, p.dim_, p.op_, p.split_factor_, p.norm_type_);
  }

 private:
  Placement(Kind kind, int64_t dim, ReduceOp op, int64_t split_factor = 0, double norm_type = 0)
      : kind_(kind), dim_(dim), op_(op), split_factor_(split_factor), norm_type_(norm_type) {}
  Kind kind_;
  int64_t dim_;
  ReduceOp op_;
  int64_t split_factor_;
  double norm_type_;
};

// Parses one placement: "R", "S(<int>)" (negative allowed: a placeholder),
// "P(sum|avg|max|min|product)", "_S(<dim>, <split factor>)", "_NormP(<p>)",
// "_MaskP(<reduce op>, <n>)".
// Surrounding whitespace is ignored; the long names "Replicate()",
// "Shard(d)", "Partial(op)", DTensor's repr "_StridedShard(dim=d, sf=s)"
// (or "_StridedShard(d, s)") and "_NormPartial(p)" are accepted as well.
// Errors: InvalidArgument naming the offending token.
absl::StatusOr<Placement> ParsePlacement(absl::string_view text);

// Canonical text of a list of placements, e.g. "S(1), R" (one side of a
// rule).
std::string PlacementsToString(const std::vector<Placement>& placements);

// Parses a comma-separated list of placements (one side of a rule); empty
// text is the empty list. Errors: as ParsePlacement.
absl::StatusOr<std::vector<Placement>> ParsePlacements(absl::string_view text);

// One inputs -> outputs combination of placements. Tensor[] arguments are
// flattened in schema order, one placement per element.
struct Rule {
  std::vector<Placement> inputs;
  std::vector<Placement> outputs;

  friend bool operator==(const Rule& a, const Rule& b) {
    return a.inputs == b.inputs && a.outputs == b.outputs;
  }
  friend bool operator!=(const Rule& a, const Rule& b) { return !(a == b); }
  friend bool operator<(const Rule& a, const Rule& b) {
    return a.inputs != b.inputs ? a.inputs < b.inputs : a.outputs < b.outputs;
  }
  template <typename H>
  friend H AbslHashValue(H h, const Rule& r) {
    return H::combine(std::move(h), r.inputs, r.outputs);
  }
};

// Canonical text, e.g. "S(1), S(0) -> P(sum)".
std::string RuleToString(const Rule& rule);

// Parses "<placements> -> <placements>". Either side may be empty only for
// an operator without tensor inputs / outputs. Errors: InvalidArgument
// naming the offending token (or the missing "->"), or a _StridedShard,
// which only an N-D rule can hold (nd_rule.h).
absl::StatusOr<Rule> ParseRule(absl::string_view text);

// How many placements each side of an overload's rules has: one per tensor
// input and output. A sample fixes the counts; a schema alone gives a range
// (an optional tensor may be absent, a Tensor[] has any length; see
// SchemaArity in op_lookup.h).
struct RuleArity {
  // No upper bound (a Tensor[] argument or return).
  static constexpr int kAny = -1;

  int min_inputs = 0;
  int max_inputs = 0;  // or kAny
  int min_outputs = 0;
  int max_outputs = 0;  // or kAny

  // Exactly `inputs` tensor inputs and `outputs` tensor outputs.
  static RuleArity Exactly(int inputs, int outputs) { return {inputs, inputs, outputs, outputs}; }
};

// The one arity check of a rule. OK if `rule` has as many input and output
// placements as `arity` allows. Errors: InvalidArgument "has 1 input
// placement but the overload has 2 tensor inputs" (or "1 to 2", "at least
// 2"; outputs alike, inputs checked first).
absl::Status CheckRuleArity(const Rule& rule, const RuleArity& arity);

// True for `R, ..., R -> R, ...`: the rule every operator has, implicit in
// every strategy.
bool IsAllReplicate(const Rule& rule);

// True for P(avg), P(max) and P(min): the reductions that give back a
// value every rank holds (not _NormPartial's or _MaskPartial's, which are
// named only).
bool IsIdempotentPartial(const Placement& p);

// True for rules that are valid for every operator and tell nobody
// anything: all-Replicate inputs with outputs that are each R or
// P(avg|max|min) (idempotent reductions of identical values). DESIGN.md §3:
// these are never reported as missing.
bool IsDegenerate(const Rule& rule);

}  // namespace shrt

#endif  // SHRT_VOCAB_PLACEMENT_H_
