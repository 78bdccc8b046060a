// N-D meshes (DESIGN.md §9): nested layouts against hand-computed chunks,
// the N-D output check, and validation of expansions on a mesh.
#include <map>

#include "ATen/core/Tensor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shrt/engine/distribute.h"
#include "shrt/engine/nd_layout.h"
#include "shrt/engine/nd_truth.h"
#include "shrt/engine/sample.h"
#include "shrt/engine/test_recipes.h"
#include "shrt/engine/test_tensors.h"
#include "shrt/engine/validate.h"
#include "shrt/vocab/nd_rule.h"

namespace shrt {
namespace {

using ::testing::HasSubstr;

std::vector<Placement> Nd(const char* text) {
  absl::StatusOr<std::vector<std::vector<Placement>>> p = ParseNdPlacementLists(text);
  EXPECT_TRUE(p.ok() && p->size() == 1) << text;
  return p->front();
}

// The rows each rank holds of arange(n) under `placements` on `mesh`.
std::vector<std::vector<int64_t>> Rows(int64_t n, const char* placements, const char* mesh) {
  std::vector<std::vector<int64_t>> out;
  for (const at::Tensor& t :
       DistributeNd(Arange(n, at::kLong), Nd(placements), *MeshShape::Parse(mesh), 0)) {
    out.emplace_back(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel());
  }
  return out;
}

using Layout = std::vector<std::vector<int64_t>>;

TEST(NdLayoutTest, ChunkOfAChunkUnevenAndEmpty) {
  // 7 rows: dim 0 gives [0..3] and [4..6]; dim 1 chunks each again.
  EXPECT_EQ(Rows(7, "[S(0), S(0)]", "2x2"), (Layout{{0, 1}, {2, 3}, {4, 5}, {6}}));
  // 3 rows: [0, 1] and [2]; rank (1, 1) holds nothing.
  EXPECT_EQ(Rows(3, "[S(0), S(0)]", "2x2"), (Layout{{0}, {1}, {2}, {}}));
  // 5 rows on 2x3: [0..2] -> [0] [1] [2]; [3, 4] -> [3] [4] [].
  EXPECT_EQ(Rows(5, "[S(0), S(0)]", "2x3"), (Layout{{0}, {1}, {2}, {3}, {4}, {}}));
  EXPECT_EQ(Rows(4, "[R, S(0)]", "2x2"), (Layout{{0, 1}, {2, 3}, {0, 1}, {2, 3}}));
  EXPECT_EQ(Rows(4, "[S(0), R]", "2x2"), (Layout{{0, 1}, {0, 1}, {2, 3}, {2, 3}}));
}

// torch/distributed/tensor/placement_types.py _StridedShard's docstring:
// rows of 8 on a 2x2 mesh, the inner mesh dim sharded first.
TEST(NdLayoutTest, StridedShardIsTheOtherOrder) {
  EXPECT_EQ(Rows(8, "[_S(0, 2), S(0)]", "2x2"), (Layout{{0, 1}, {4, 5}, {2, 3}, {6, 7}}));
  EXPECT_EQ(Rows(8, "[S(0), S(0)]", "2x2"), (Layout{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  // Uneven: 6 rows in 4 pieces of 2: [0,1] [2,3] [4,5] []; dp rank 0
  // holds pieces 0 and 2 ([0, 1, 4, 5]), rank 1 pieces 1 and 3 ([2, 3]),
  // which the inner mesh dim chunks again.
  EXPECT_EQ(Rows(6, "[_S(0, 2), S(0)]", "2x2"), (Layout{{0, 1}, {4, 5}, {2}, {3}}));
  const MeshShape mesh = *MeshShape::Parse("2x2");
  EXPECT_EQ(NdLocalShape({6, 3}, Nd("[_S(0, 2), S(0)]"), mesh, 3), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(NdLocalShape({7, 3}, Nd("[S(0), S(1)]"), mesh, 3), (std::vector<int64_t>{3, 1}));
}

// Locals are copied out of the full tensor by DistributeNd's own loop
// (nd_layout.cc CopyOf): whatever the full tensor's strides and dtype,
// rank r's local holds the elements a contiguous index tensor's local names
// (whose rows ChunkOfAChunkUnevenAndEmpty and StridedShardIsTheOtherOrder
// check), in a contiguous buffer of its own.
TEST(NdLayoutTest, LocalsAreCopiedFromAnyStrides) {
  const MeshShape mesh = *MeshShape::Parse("2x2");
  const at::Tensor index = Arange(30, at::kLong).view({6, 5});
  for (const at::Tensor& full :
       {Randn({5, 6}, at::kDouble).t(), Randn({5, 6}, at::kComplexFloat).t(),
        Randn({6, 10}, at::kFloat).slice(1, 0, 10, 2), Arange(30, at::kInt).view({6, 5})}) {
    ASSERT_EQ(full.sizes(), index.sizes());
    const at::Tensor flat = full.contiguous().view(-1);
    for (const char* placements :
         {"[S(0), S(1)]", "[S(1), S(0)]", "[_S(1, 2), S(1)]", "[_S(0, 2), S(0)]", "[R, S(1)]",
          "[S(0), R]"}) {
      const std::vector<at::Tensor> locals = DistributeNd(full, Nd(placements), mesh, 3);
      const std::vector<at::Tensor> names = DistributeNd(index, Nd(placements), mesh, 3);
      for (int r = 0; r < 4; ++r) {
        EXPECT_TRUE(locals[r].is_contiguous()) << placements << " " << r;
        EXPECT_TRUE(locals[r].equal(flat.index_select(0, names[r].reshape(-1))
                                             .view(names[r].sizes())))
            << full.scalar_type() << " " << placements << " rank " << r;
      }
    }
  }
  const at::Tensor scalar = ScalarTensor(2.5, at::kDouble);
  for (const at::Tensor& local : DistributeNd(scalar, Nd("[R, R]"), mesh, 3)) {
    EXPECT_TRUE(local.equal(scalar));
  }
}

TEST(NdLayoutTest, NestedPartialsReduceToTheFullTensor) {
  const at::Tensor x = Randn({5, 4}, at::kDouble);
  const MeshShape mesh = *MeshShape::Parse("2x3");
  double scale = 0;
  const std::vector<at::Tensor> parts = DistributeNd(x, Nd("[P(sum), P(sum)]"), mesh, 7, &scale);
  ASSERT_EQ(parts.size(), 6u);
  EXPECT_TRUE(ReducePartial(parts, Placement::Partial(ReduceOp::kSum)).allclose(x));
  EXPECT_GT(scale, 0);
  // Replicate on dim 0: ranks (0, j) and (1, j) hold the same part.
  const std::vector<at::Tensor> r_p = DistributeNd(x, Nd("[R, P(sum)]"), mesh, 7);
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(r_p[j].equal(r_p[3 + j])) << j;
  EXPECT_FALSE(r_p[0].equal(r_p[1]));
  // [S(0), P(max)]: each dim-0 chunk's parts reduce to that chunk.
  const std::vector<at::Tensor> s_p = DistributeNd(x, Nd("[S(0), P(max)]"), mesh, 7);
  EXPECT_TRUE(ReducePartial({s_p[3], s_p[4], s_p[5]}, Placement::Partial(ReduceOp::kMax))
                  .equal(x.narrow(0, 3, 2)));
}

// A split is drawn from the seed and the base it splits alone: [R, P(sum)]'s
// rank (0, j) holds [P(sum), R]'s rank (j, 0) part, [S(0), P(sum)]'s rank
// (i, j) the chunk i of that part, as [P(sum), S(0)]'s rank (j, i) does,
// and a cache gives every placement the locals it gets without one,
// drawing each split once.
TEST(NdLayoutTest, OneSplitUnderAnyPlacements) {
  const at::Tensor x = Randn({5, 4}, at::kDouble);
  const MeshShape mesh = *MeshShape::Parse("2x2");
  const std::vector<at::Tensor> r_p = DistributeNd(x, Nd("[R, P(sum)]"), mesh, 7);
  const std::vector<at::Tensor> p_r = DistributeNd(x, Nd("[P(sum), R]"), mesh, 7);
  EXPECT_TRUE(r_p[0].equal(p_r[0]));
  EXPECT_TRUE(r_p[1].equal(p_r[2]));
  EXPECT_FALSE(r_p[0].equal(DistributeNd(x, Nd("[R, P(sum)]"), mesh, 8)[0]));
  for (const auto& [shard_first, partial_first] :
       {std::pair{"[S(0), P(sum)]", "[P(sum), S(0)]"}, {"[S(1), P(max)]", "[P(max), S(1)]"},
        {"[S(0), P(product)]", "[P(product), S(0)]"}}) {
    std::vector<uint64_t> keys_s, keys_p;
    const std::vector<at::Tensor> s_p = DistributeNd(x, Nd(shard_first), mesh, 7, nullptr, &keys_s);
    const std::vector<at::Tensor> p_s =
        DistributeNd(x, Nd(partial_first), mesh, 7, nullptr, &keys_p);
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        EXPECT_TRUE(s_p[2 * i + j].equal(p_s[2 * j + i])) << shard_first << " " << i << j;
        EXPECT_EQ(keys_s[2 * i + j], keys_p[2 * j + i]) << shard_first << " " << i << j;
      }
    }
    EXPECT_FALSE(s_p[0].equal(s_p[1])) << shard_first;  // two parts of one chunk
  }
  NdPieceCache cache;
  for (const char* placements :
       {"[P(sum), S(0)]", "[P(sum), R]", "[S(1), P(sum)]", "[P(sum), P(sum)]", "[R, P(sum)]"}) {
    double with = 0, without = 0;
    std::vector<uint64_t> keys_with, keys_without;
    const std::vector<at::Tensor> a =
        DistributeNd(x, Nd(placements), mesh, 7, &with, &keys_with, &cache);
    const std::vector<at::Tensor> b = DistributeNd(x, Nd(placements), mesh, 7, &without, &keys_without);
    EXPECT_EQ(with, without) << placements;
    EXPECT_EQ(keys_with, keys_without) << placements;
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(a[r].equal(b[r])) << placements << " " << r;
  }
  // Splits of the full tensor (one, which [S(1), P(sum)] cuts too) and of
  // the two parts of [P(sum), P(sum)]'s first level.
  EXPECT_EQ(cache.splits.size(), 3u);
}

// Rank keys name what a local holds, whatever placements gave it: the
// call memo (nd_truth.cc) reuses a call's outputs for equal keys.
TEST(NdLayoutTest, RankKeysNameContent) {
  const at::Tensor x = Randn({6, 4});
  const MeshShape mesh = *MeshShape::Parse("2x2");
  auto keys = [&](const char* placements, uint64_t seed = 5) {
    std::vector<uint64_t> k;
    const std::vector<at::Tensor> locals = DistributeNd(x, Nd(placements), mesh, seed, nullptr, &k);
    // Equal keys, equal locals; different keys, different locals here.
    for (int r = 0; r < 4; ++r) {
      for (int q = 0; q < 4; ++q) {
        EXPECT_EQ(k[r] == k[q], locals[r].equal(locals[q])) << placements << " " << r << q;
      }
    }
    return k;
  };
  const std::vector<uint64_t> s0_r = keys("[S(0), R]"), r_s0 = keys("[R, S(0)]");
  EXPECT_EQ(s0_r[0], s0_r[1]);                            // differ on a Replicate dim
  EXPECT_EQ(s0_r[0], r_s0[0]);                            // chunk 0 of dim 0 either way
  EXPECT_EQ(s0_r[2], r_s0[1]);                            // chunk 1
  EXPECT_EQ(keys("[R, R]")[0], keys("[R, R]", 9)[3]);     // the whole tensor, any seed
  // A chunk of a chunk is the 4-way chunk: [S(0), S(0)]'s (1, 0) holds rows 3..4.
  const std::vector<uint64_t> s0_s0 = keys("[S(0), S(0)]");
  EXPECT_NE(s0_s0[0], s0_r[0]);
  EXPECT_NE(keys("[S(0), S(1)]")[0], keys("[S(1), S(0)]")[1]);  // [0:3, 0:2] vs [3:6, 0:2]
  EXPECT_EQ(keys("[S(0), S(1)]")[0], keys("[S(1), S(0)]")[0]);  // [0:3, 0:2] both
  // Partial parts differ by seed and placement, and equal where the parts do.
  const std::vector<uint64_t> p = keys("[P(sum), R]"), p9 = keys("[P(sum), R]", 9);
  EXPECT_EQ(p[0], p[1]);
  EXPECT_NE(p[0], p9[0]);
  EXPECT_NE(p[0], keys("[P(max), R]")[0]);
  EXPECT_NE(p[0], s0_r[0]);
}

// TransposesOnSquareMesh is exact: for every pair of placements of a 2-d
// tensor (uneven on 2x2), [p, q]'s rank (i, j) holds [q, p]'s rank (j, i)
// local, key included, exactly when it says so, and where it does, an
// output check of [p, q] passes and fails, by as much, as the check of
// the same outputs on the transposed ranks under [q, p].
TEST(NdLayoutTest, TransposesOnSquareMeshIsExact) {
  const at::Tensor x = Randn({5, 4}, at::kDouble);
  const MeshShape mesh = *MeshShape::Parse("2x2");
  const std::vector<Placement> candidates = {
      Placement::Replicate(),          Placement::Shard(0),
      Placement::Shard(1),             Placement::StridedShard(0, 2),
      Placement::Partial(ReduceOp::kSum), Placement::Partial(ReduceOp::kMax),
      Placement::Partial(ReduceOp::kProduct)};
  auto transpose = [](const std::vector<at::Tensor>& ranks) {
    return std::vector<at::Tensor>{ranks[0], ranks[2], ranks[1], ranks[3]};
  };
  CheckContext context;
  auto none = []() -> const RoundingReference* { return nullptr; };
  int transposing = 0;
  for (const Placement& p : candidates) {
    for (const Placement& q : candidates) {
      if (p.is_partial() && q.is_partial() && !(p == q)) continue;  // mixed: no DTensor placement
      const std::string pair = absl::StrCat("[", p.ToString(), ", ", q.ToString(), "]");
      NdPieceCache cache;
      std::vector<uint64_t> keys_pq, keys_qp;
      const std::vector<at::Tensor> pq =
          DistributeNd(x, {p, q}, mesh, 7, nullptr, &keys_pq, &cache);
      const std::vector<at::Tensor> qp =
          DistributeNd(x, {q, p}, mesh, 7, nullptr, &keys_qp, &cache);
      bool same = true;
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
          const at::Tensor& a = pq[2 * i + j];
          const at::Tensor& b = qp[2 * j + i];
          same = same && keys_pq[2 * i + j] == keys_qp[2 * j + i] && a.sizes() == b.sizes() &&
                 a.equal(b);
        }
      }
      EXPECT_EQ(same, TransposesOnSquareMesh(p, q)) << pair;
      if (!TransposesOnSquareMesh(p, q)) continue;
      ++transposing;
      std::vector<at::Tensor> wrong = pq;
      wrong[1] = wrong[1].add(0.5);
      for (const std::vector<at::Tensor>& outs : {pq, wrong}) {
        const OutputCheck a = CheckNdOutput(x, outs, {p, q}, mesh, context, none);
        const OutputCheck b = CheckNdOutput(x, transpose(outs), {q, p}, mesh, context, none);
        EXPECT_EQ(a.ok, b.ok) << pair;
        EXPECT_EQ(a.max_abs_diff, b.max_abs_diff) << pair;
        EXPECT_EQ(a.rank < 0 ? -1 : (a.rank % 2) * 2 + a.rank / 2, b.rank) << pair;
      }
      EXPECT_FALSE(CheckNdOutput(x, wrong, {p, q}, mesh, context, none).ok) << pair;
    }
  }
  // R with each (13 pairs), cuts of two dims (4), a cut and a Partial (18).
  EXPECT_EQ(transposing, 35);
}

TEST(NdLayoutTest, OutputCheckNamesTheRankOfAWrongLocal) {
  const at::Tensor y = Randn({7, 3});
  const MeshShape mesh = *MeshShape::Parse("2x2");
  CheckContext context;
  auto none = []() -> const RoundingReference* { return nullptr; };
  std::vector<at::Tensor> locals = DistributeNd(y, Nd("[S(0), S(1)]"), mesh, 0);
  EXPECT_TRUE(CheckNdOutput(y, locals, Nd("[S(0), S(1)]"), mesh, context, none).ok);
  // The same locals are not [S(1), S(0)], nor [S(0), S(0)].
  const OutputCheck swapped = CheckNdOutput(y, locals, Nd("[S(0), S(0)]"), mesh, context, none);
  EXPECT_FALSE(swapped.ok);
  EXPECT_EQ(mesh.RankName(swapped.rank), "(0, 0)");
  locals[3] = locals[3].add(1);
  const OutputCheck off = CheckNdOutput(y, locals, Nd("[S(0), S(1)]"), mesh, context, none);
  EXPECT_FALSE(off.ok);
  EXPECT_EQ(mesh.RankName(off.rank), "(1, 1)");
  // Partial over dim 1: groups (i, *) reduce to chunk i.
  const std::vector<at::Tensor> parts = DistributeNd(y, Nd("[S(0), P(sum)]"), mesh, 3);
  EXPECT_TRUE(CheckNdOutput(y, parts, Nd("[S(0), P(sum)]"), mesh, context, none).ok);
  const OutputCheck wrong = CheckNdOutput(y, parts, Nd("[P(sum), S(0)]"), mesh, context, none);
  EXPECT_FALSE(wrong.ok);
}

TEST(NdLayoutTest, OutputCheckReusesItsExpectedPiecesAndStillFails) {
  const at::Tensor y = Randn({7, 3});
  const MeshShape mesh = *MeshShape::Parse("2x2");
  CheckContext context;
  auto none = []() -> const RoundingReference* { return nullptr; };
  std::vector<at::Tensor> pieces;
  std::vector<at::Tensor> locals = DistributeNd(y, Nd("[S(0), S(1)]"), mesh, 0);
  // A failure in group 0 stops before the later groups' pieces are cut.
  std::vector<at::Tensor> wrong = locals;
  wrong[0] = wrong[0].add(1);
  const OutputCheck first = CheckNdOutput(y, wrong, Nd("[S(0), S(1)]"), mesh, context, none, &pieces);
  EXPECT_FALSE(first.ok);
  EXPECT_EQ(mesh.RankName(first.rank), "(0, 0)");
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_TRUE(CheckNdOutput(y, locals, Nd("[S(0), S(1)]"), mesh, context, none, &pieces).ok);
  ASSERT_EQ(pieces.size(), 4u);  // one group per rank: no Partial level
  EXPECT_TRUE(pieces[3].equal(locals[3]));
  // Kept pieces judge later outputs exactly as fresh ones do.
  locals[3] = locals[3].add(1);
  const OutputCheck off = CheckNdOutput(y, locals, Nd("[S(0), S(1)]"), mesh, context, none, &pieces);
  EXPECT_FALSE(off.ok);
  EXPECT_EQ(mesh.RankName(off.rank), "(1, 1)");
  // Partial over dim 1: two groups, (0, *) and (1, *), one piece each.
  std::vector<at::Tensor> partial_pieces;
  const std::vector<at::Tensor> parts = DistributeNd(y, Nd("[S(0), P(sum)]"), mesh, 3);
  for (int repeat = 0; repeat < 2; ++repeat) {
    EXPECT_TRUE(
        CheckNdOutput(y, parts, Nd("[S(0), P(sum)]"), mesh, context, none, &partial_pieces).ok);
  }
  EXPECT_EQ(partial_pieces.size(), 2u);
}

// Validates `spec_text` claiming `rules` on `mesh` (N-D) or at W (1-D).
OpReport OnMesh(const std::string& spec_text, const std::vector<std::string>& rules,
                const char* mesh) {
  absl::StatusOr<LoadedSpec> spec =
      LoadedSpec::FromText(spec_text, "test.textproto", TestRecipes());
  EXPECT_TRUE(spec.ok()) << spec.status();
  const RuleSource source = ClaimRules(rules);
  ValidateOptions options;
  const MeshShape m = *MeshShape::Parse(mesh);
  options.world_size = m.size();
  absl::StatusOr<OpReport> report = m.ndim() == 1
                                        ? ValidateOp(*spec, source, options)
                                        : ValidateOnMesh(*spec, ExpandedClaims(source, m), m, options);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : OpReport{};
}

const NdRuleVerdict* Find(const OpReport& r, const std::string& rule) {
  for (const NdRuleVerdict& v : r.nd_rules) {
    if (NdRuleToString(v.rule) == rule) return &v;
  }
  return nullptr;
}

// A spec of aten::add.Tensor with one sample, "uneven": self and other of
// shape [rows, cols].
std::string UnevenAdd(int rows, int cols) {
  return absl::StrCat(R"pb(
    op: "aten::add.Tensor"
    sample {
      name: "uneven"
      arg {
        name: "self"
        tensor { shape: [ )pb", rows, ", ", cols, R"pb( ] }
      }
      arg {
        name: "other"
        tensor { shape: [ )pb", rows, ", ", cols, R"pb( ] }
      }
    }
  )pb");
}

// On a square mesh a rule whose transpose (its mesh dims swapped, every
// tensor TransposesOnSquareMesh) comes earlier is judged with it instead
// of running itself (nd_truth.cc): each rule's verdict and evidence, and
// the combination checks, are what it gets when it runs alone, for rules
// that hold, rules that fail on a check and rules whose ranks raise.
TEST(NdValidateTest, TransposedRulesAreJudgedAsTheyRunAlone) {
  absl::StatusOr<LoadedSpec> spec =
      LoadedSpec::FromText(UnevenAdd(5, 4), "test.textproto", TestRecipes());
  ASSERT_TRUE(spec.ok()) << spec.status();
  const std::vector<std::string> rules = {
      "[S(0), P(sum)], [S(0), P(sum)] -> [S(0), P(sum)]",  // holds, and its transpose
      "[P(sum), S(0)], [P(sum), S(0)] -> [P(sum), S(0)]",
      "[S(0), S(1)], [S(0), S(1)] -> [S(0), S(1)]",
      "[S(1), S(0)], [S(1), S(0)] -> [S(1), S(0)]",
      "[S(0), P(max)], [S(0), R] -> [S(0), P(max)]",
      "[P(max), S(0)], [R, S(0)] -> [P(max), S(0)]",
      "[S(0), P(sum)], [S(0), R] -> [S(0), P(sum)]",  // fails: other added on every rank
      "[P(sum), S(0)], [R, S(0)] -> [P(sum), S(0)]",
      "[S(0), R], [S(0), R] -> [S(0), S(1)]",  // fails on a check
      "[R, S(0)], [R, S(0)] -> [S(1), S(0)]",
      "[S(1), R], [S(0), R] -> [S(1), R]",  // ranks raise: 5x2 + 3x4
      "[R, S(1)], [R, S(0)] -> [R, S(1)]",
      "[S(0), S(0)], [S(0), S(0)] -> [S(0), S(0)]",  // no transpose
  };
  std::vector<NdRule> parsed;
  for (const std::string& r : rules) parsed.push_back(*ParseNdRule(r));
  const MeshShape mesh = *MeshShape::Parse("2x2");
  auto validate = [&](std::vector<NdRule> claimed) {
    NdClaimSource source = [claimed](const OpArgs&) -> absl::StatusOr<NdClaims> {
      NdClaims out;
      for (const NdRule& r : claimed) out.claims.push_back({r, NdClaim::Kind::kKept, ""});
      return out;
    };
    absl::StatusOr<OpReport> report = ValidateOnMesh(*spec, source, mesh, ValidateOptions());
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : OpReport{};
  };
  const OpReport together = validate(parsed);
  int64_t alone_checks = 0;
  std::map<Verdict, int> verdicts;
  for (const NdRule& rule : parsed) {
    const OpReport alone = validate({rule});
    alone_checks += alone.combination_checks;
    ASSERT_EQ(alone.nd_rules.size(), 1u) << NdRuleToString(rule);
    const NdRuleVerdict* v = Find(together, NdRuleToString(rule));
    ASSERT_NE(v, nullptr) << NdRuleToString(rule);
    EXPECT_EQ(v->verdict, alone.nd_rules[0].verdict) << NdRuleToString(rule);
    EXPECT_EQ(v->evidence, alone.nd_rules[0].evidence) << NdRuleToString(rule);
    ++verdicts[v->verdict];
  }
  EXPECT_EQ(together.combination_checks, alone_checks);
  EXPECT_EQ(verdicts[Verdict::kCorrect], 7);
  EXPECT_EQ(verdicts[Verdict::kIncorrect], 6);
  // The six later rules of the pairs were judged with their transposes, on
  // 2x2; on 2x3 (not square) every rule runs itself.
  absl::StatusOr<std::vector<BoundSample>> bound = BoundSample::BindAll(*spec, 0);
  ASSERT_TRUE(bound.ok()) << bound.status();
  const NdRuleSource source = [&](const OpArgs&) -> absl::StatusOr<std::vector<NdRule>> {
    return parsed;
  };
  for (const auto& [shape, transposed] : {std::pair{"2x2", 6}, {"2x3", 0}}) {
    absl::StatusOr<NdSampleTruth> truth = NdGroundTruth(
        *spec, 0, bound->front(), *MeshShape::Parse(shape), source, TruthOptions());
    ASSERT_TRUE(truth.ok()) << truth.status();
    EXPECT_EQ(truth->transposed, transposed) << shape;
  }
}

// mean over dim 0 of 6 rows: S(0) -> P(avg) holds on each mesh dim of 2
// alone (3 + 3 rows), but nested chunks are 2 + 1 rows: the expansion, not
// the rule, is wrong.
TEST(NdValidateTest, UnevenNestedChunksAreACompositionFailure) {
  const char kMean[] = R"pb(
    op: "aten::mean.dim"
    sample {
      name: "six_rows"
      arg {
        name: "self"
        tensor {
          shape: [ 6, 3 ]
          dtype: FLOAT64
        }
      }
      arg {
        name: "dim"
        int_list { value: [ 0 ] }
      }
    }
  )pb";
  const OpReport one_d = OnMesh(kMean, {"S(0) -> P(avg)"}, "2");
  EXPECT_EQ(one_d.Count(Verdict::kIncorrect), 0);
  EXPECT_EQ(one_d.Count(Verdict::kCorrect), 1);
  const OpReport r = OnMesh(kMean, {"S(0) -> P(avg)"}, "2x2");
  EXPECT_EQ(r.mesh, "2x2");
  const NdRuleVerdict* nested = Find(r, "[S(0), S(0)] -> [P(avg), P(avg)]");
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->verdict, Verdict::kIncorrect);
  EXPECT_TRUE(nested->composition);
  EXPECT_THAT(nested->evidence, HasSubstr("each single-dim rule holds alone"));
  EXPECT_EQ(Find(r, "[S(0), R] -> [P(avg), R]")->verdict, Verdict::kCorrect);
  EXPECT_EQ(r.CompositionFailures(), 1);
}

// A wrong single-dim rule is incorrect on the mesh too, but not a
// composition failure; 1xN and Nx1 meshes agree with the 1-D verdicts.
TEST(NdValidateTest, DegenerateMeshesAgreeWithOneDimension) {
  const std::string kAdd = UnevenAdd(7, 5);
  const std::vector<std::string> claimed = {"S(0), S(0) -> S(0)", "S(0), S(0) -> S(1)",
                                            "P(sum), P(sum) -> P(sum)", "R, P(max) -> P(max)"};
  const OpReport one_d = OnMesh(kAdd, claimed, "4");
  EXPECT_EQ(one_d.Count(Verdict::kIncorrect), 1);
  for (const char* mesh : {"1x4", "4x1"}) {
    const OpReport r = OnMesh(kAdd, claimed, mesh);
    const int m = mesh[0] == '1' ? 1 : 0;  // the mesh dim of size 4
    for (const RuleVerdict& v : one_d.rules) {
      if (v.verdict == Verdict::kMissing) continue;  // the expansion has only claims
      const NdRuleVerdict* nd = Find(r, NdRuleToString(EmbedRule(v.rule, m, 2)));
      ASSERT_NE(nd, nullptr) << mesh << ": " << RuleToString(v.rule);
      EXPECT_EQ(nd->verdict, v.verdict) << mesh << ": " << RuleToString(v.rule);
      EXPECT_FALSE(nd->composition);
    }
  }
  const OpReport r = OnMesh(kAdd, claimed, "2x2");
  const NdRuleVerdict* wrong = Find(r, "[S(0), S(0)], [S(0), S(0)] -> [S(1), S(1)]");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->verdict, Verdict::kIncorrect);
  EXPECT_FALSE(wrong->composition);
  EXPECT_THAT(wrong->evidence, HasSubstr("rank (0, 0)"));
}

}  // namespace
}  // namespace shrt
