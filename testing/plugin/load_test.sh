#!/bin/bash
# `shrt --load` with a custom-op library that g++ builds here, outside the
# Bazel graph, exactly as a custom-op author's build would (see README.md
# "Custom ops from a shared library").
set -u
shrt="$1"
tmp="$TEST_TMPDIR"
spec=testing/plugin/shrt_plugin_demo_scaled_mul.textproto
source tools/expect.sh
# The installed torch, found as its users find it (the same torch that
# @libtorch links into shrt: third_party/libtorch.bzl).
torch_cmake="$(/usr/bin/python3 -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
torch_root="${torch_cmake%/share/cmake}"
build() {  # build OUTPUT [g++ flags...]: scaled_mul.cc as a shared library
  local out="$1"; shift
  g++ -std=c++20 -O1 -shared -fPIC "$@" -I. -I"$torch_root/include" \
    -I"$torch_root/include/torch/csrc/api/include" testing/plugin/scaled_mul.cc -o "$out" \
    -L"$torch_root/lib" -Wl,-rpath,"$torch_root/lib" -ltorch -ltorch_cpu -lc10
}

check "g++ builds the library" build "$tmp/libscaled_mul.so"
expect 1 "validate: the wrong rule fails the run" -- \
  "$shrt" validate --load="$tmp/libscaled_mul.so" --spec=$spec --world_size=2 --format=json --quiet
cp "$tmp/out" "$tmp/report.json"
check "one rule incorrect, the rest correct" /usr/bin/python3 - "$tmp/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
[op] = report["ops"]
assert op["op"] == "shrt_plugin_demo::scaled_mul", op["op"]
assert [r["rule"] for r in op["incorrect"]] == ["P(sum), P(sum) -> P(sum)"], op["incorrect"]
assert "max |difference|" in op["incorrect"][0]["evidence"], op["incorrect"][0]
assert sorted(op["correct"]) == sorted([
    "P(sum), R -> P(sum)", "R, P(sum) -> P(sum)", "P(avg), R -> P(avg)", "R, P(avg) -> P(avg)",
    "S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)"]), op["correct"]
assert not op["unverified"] and not op["error"], op
PY
expect 1 "text report" -- "$shrt" validate --load="$tmp/libscaled_mul.so" --spec=$spec --world_size=2
check "the repro command names the library" \
  grep -q -- "--world_size=2 --load=$tmp/libscaled_mul.so" "$tmp/out"

# The same library from CMake (find_package(Torch)), as README.md shows it.
check "cmake builds the library" bash -c "cmake -S testing/plugin -B '$tmp/cmake' -DSHRT_ROOT='$PWD' -DCMAKE_PREFIX_PATH='$torch_cmake' \
  -DCMAKE_BUILD_TYPE=Release >'$tmp/cmake.log' 2>&1 && cmake --build '$tmp/cmake' >>'$tmp/cmake.log' 2>&1 \
  || { cat '$tmp/cmake.log'; false; }"
expect 1 "validate the CMake-built library" -- \
  "$shrt" validate --load="$tmp/cmake/libscaled_mul.so" --spec=$spec --world_size=2 --format=json
check "the same verdicts as the g++ build" /usr/bin/python3 -c '
import json, sys
verdicts = lambda path: [{k: op[k] for k in ("correct", "incorrect", "missing", "unverified")}
                         for op in json.load(open(path))["ops"]]
assert verdicts(sys.argv[1]) == verdicts(sys.argv[2])
' "$tmp/report.json" "$tmp/out"

expect 2 "a missing library" -- "$shrt" validate --load="$tmp/nope.so" --spec=$spec
check "a missing library is named" grep -q "no readable file '$tmp/nope.so'" "$tmp/err"

# The old C++ string ABI: libtorch's symbols are not found.
check "g++ builds an other-ABI library" build "$tmp/libold_abi.so" -D_GLIBCXX_USE_CXX11_ABI=0
expect 2 "a library of another libtorch ABI" -- \
  "$shrt" validate --load="$tmp/libold_abi.so" --spec=$spec
check "the undefined symbol is named" grep -q "cannot load '$tmp/libold_abi.so'.*undefined symbol" "$tmp/err"

echo 'int shrt_plugin_demo_nothing = 1;' > "$tmp/nothing.cc"
check "g++ builds an empty library" g++ -shared -fPIC "$tmp/nothing.cc" -o "$tmp/libnothing.so"
for command in "validate --spec=$spec" "discover --spec=$spec" "coverage"; do
  expect 2 "$command: a library that registers nothing" -- \
    "$shrt" $command --load="$tmp/libnothing.so"
  check "$command: nothing registered is said" grep -q "registers no operator" "$tmp/err"
done

expect 0 "discover on the loaded operator" -- \
  "$shrt" discover --load="$tmp/libscaled_mul.so" --spec=$spec --world_size=2 --format=json
check "discover finds S(d), S(d) -> S(d)" /usr/bin/python3 -c '
import json, sys
rules = [r["placements"] for r in json.load(open(sys.argv[1]))["rules"]]
assert "S(d), S(d) -> S(d)" in rules, rules
' "$tmp/out"
expect 0 "coverage of the loaded namespace" -- \
  "$shrt" coverage --load="$tmp/libscaled_mul.so" --namespace=shrt_plugin_demo --format=json
check "coverage counts its strategy" /usr/bin/python3 -c '
import json, sys
groups = json.load(open(sys.argv[1]))["namespaces"]
[g] = [g for g in groups if g["name"] == "shrt_plugin_demo"]
assert g["overloads"] == 1 and g["with_strategy"] == 1, g
' "$tmp/out"

# Without ShRT the library still loads (its registration is weak) and runs.
check "the library loads without ShRT" /usr/bin/python3 -c '
import sys, torch
torch.ops.load_library(sys.argv[1])
y = torch.ops.shrt_plugin_demo.scaled_mul(torch.full((2,), 2.0), torch.full((2,), 3.0), 0.5)
assert y.tolist() == [3.0, 3.0], y
' "$tmp/libscaled_mul.so"
exit $fail
