#!/bin/bash
# Writes the seed inputs of every fuzz target (shrt/fuzz/corpus/<target>/
# seed_*) from the repository's own files, a few dozen per target: rules
# and placements as written in specs, tables and xfail files; one op spec
# per family plus specs that use each less common field; every recipe;
# every strategy table and each of its ops alone; every xfail file and each
# of its entries alone; the not-checkable file. Regression inputs (regression_*) are left alone.
# Run from anywhere; commit the result.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=shrt/fuzz/corpus
recipe_dir=op_specs/recipes

reset() {  # reset TARGET: an empty seed set for TARGET
  mkdir -p "$out/$1"
  rm -f "$out/$1"/seed_*
}
copy() {  # copy TARGET FILE...: each file as one seed, named after its path
  local target="$1" f; shift
  for f in "$@"; do cp "$f" "$out/$target/seed_${f//\//_}"; done
}
split_blocks() {  # split_blocks TARGET FILE KEYWORD: each top-level "KEYWORD {...}" block as a seed
  awk -v dir="$out/$1" -v base="seed_${2//\//_}" -v key="$3" '
    $0 ~ "^" key " \\{" { n++; f = sprintf("%s/%s.%s%d", dir, base, key, n) }
    f { print > f }
    /^}/ { if (f) close(f); f = "" }' "$2"
}
lines() {  # lines TARGET NAME: at most 40 of stdin's distinct lines, evenly spread, one per seed
  local n=0
  mapfile -t all < <(sort -u)
  local step=$(( (${#all[@]} + 39) / 40 )); (( step > 0 )) || step=1
  for (( i = 0; i < ${#all[@]}; i += step )); do
    printf '%s' "${all[$i]}" > "$out/$1/seed_$2_$(printf '%02d' $n)"; n=$((n + 1))
  done
}

text_files=(op_specs/*/*.textproto tables/*.textproto tables/specs/*.textproto testing/*/*.textproto testing/*/*/*.textproto)

reset placement_fuzz
{
  grep -ohE '(rule|placements): "[^"]*"' "${text_files[@]}" | sed -E 's/^[a-z]+: "(.*)"$/\1/'
  grep -ohE '(R|S\(-?[0-9]+\)|P\([a-z]+\))' "${text_files[@]}" | sed 's/^/ /'
} | lines placement_fuzz text
# N-D rules (a table's, _StridedShard's spellings) and --mesh shapes.
printf '%s\n' '[S(0), S(1)], [S(0), R] -> [S(0), S(1)]' \
  '[_S(0, 2), S(0)], [_StridedShard(dim=0, sf=2), S(0)] -> [P(sum), P(sum)]' '2x3' '2x2x2' |
  lines placement_fuzz nd

reset spec_fuzz
op_specs=()
for f in op_specs/*/*.textproto; do [[ "$f" == "$recipe_dir"/* ]] || op_specs+=("$f"); done
specs=()
for family in $(printf '%s\n' "${op_specs[@]}" | cut -d/ -f2 | sort -u); do
  for f in "${op_specs[@]}"; do  # the family's first (no `| head`: SIGPIPE under pipefail)
    if [[ "$f" == "op_specs/$family/"* ]]; then specs+=("$f"); break; fi
  done
done
for field in sweep exclude missing local_shape_arg 'tensors {' recipe: world_sizes samples_from 'sample: \[' arg_recipe '^recipe:' '^samples_from .* recipe:' '^  arg_recipe' tolerance nightly_only dtype_value int_list str_value 'none: true' layout require_complete '^alias:' 'rename {'; do
  f=$(grep -l -- "$field" "${op_specs[@]}" | sed -n 1p || true)
  [[ -n "$f" ]] && specs+=("$f")
done
specs+=(tables/specs/*.textproto testing/specs/*.textproto)
mapfile -t specs < <(printf '%s\n' "${specs[@]}" | sort -u)
copy spec_fuzz "${specs[@]}"

reset recipe_fuzz
copy recipe_fuzz "$recipe_dir"/*.textproto

reset table_fuzz
tables=(tables/*.textproto)
copy table_fuzz "${tables[@]}"
for t in "${tables[@]}"; do split_blocks table_fuzz "$t" op; done

reset xfail_fuzz
xfails=(op_specs/xfails.textproto testing/xfail_demo/xfails.textproto testing/xfail_demo/stale/xfails.textproto)
copy xfail_fuzz "${xfails[@]}"
for x in "${xfails[@]}"; do split_blocks xfail_fuzz "$x" xfail; done

reset not_checkable_fuzz
copy not_checkable_fuzz op_specs/not_checkable.textproto
for d in "$out"/*/; do echo "$(ls "$d" | wc -l) inputs in $d"; done
