// The includes precompiled once per configuration for ShRT's C++ sources
// that use libtorch (//shrt/pch:torch_pch, pch.bzl): the headers most of
// them parse, libtorch's tensor header first. A source still includes what
// it uses: this set only makes those includes cheap.
//
// Only what nearly every such source reads belongs here: a precompiled
// header is read whole by every compile, so a header few sources include
// would cost the others. ATen's operator headers (ATen/Functions.h,
// ATen/ops/*) must never be here: the engine reaches ATen's functions
// through shrt/spec/aten_functions.h alone (//shrt:layering_test).
#ifndef SHRT_PCH_HEADERS_H_
#define SHRT_PCH_HEADERS_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ATen/core/Tensor.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

#endif  // SHRT_PCH_HEADERS_H_
