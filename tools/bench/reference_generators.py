"""Seeds and value generators of the eager-PyTorch reference
(tools/bench/reference.py): the order-sensitive seed of every (sample,
generator, tuple, variant, input), and the default recipe's generators,
which draw each sample's full inputs. Values are drawn with
torch.Generator, not ShRT's SplitMix64, so they do not match the C++ bit
for bit. The Partial parts (reference_distribute.py) draw from the same
seeds and uniform/sign helpers.
"""

import math

import torch

from reference_placements import real_dtype


# ---------------------------------------------------------------------------
# Seeds (shrt/spec/rng.h MixSeed), so every (sample, generator, tuple, variant,
# input) gets its own, order-sensitive seed.

_M64 = (1 << 64) - 1


def _splitmix(state):
    z = (state + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def mix_seed(*parts):
    h = 0x243F6A8885A308D3
    for p in parts:
        h = _splitmix(h ^ ((p * 0x9E3779B97F4A7C15) & _M64))
    return h


def text_seed(text):
    """A seed of a text, the same in every run (shrt/spec/rng.h TextSeed)."""
    data = text.encode()
    h = mix_seed(len(data))
    for c in data:
        h = mix_seed(h, c)
    return h


def case_seed(seed, sample_name, g):
    """The seed of case g of the sample named sample_name (shrt/spec/rng.h
    CaseSeed): it names the sample, not its position."""
    return mix_seed(seed, text_seed(sample_name), g)


_GEN = torch.Generator()


def rng(seed):
    _GEN.manual_seed(seed & ((1 << 63) - 1))
    return _GEN


# ---------------------------------------------------------------------------
# Generators: the default recipe (op_specs/recipes/default.textproto,
# shrt/spec/generators.cc). Values are made in float64, then converted.

def to_dtype(v, dtype):
    """ValuesToTensor's conversion: round and clamp integers, parity for bool."""
    if dtype == torch.bool:
        return torch.remainder(v.round().abs(), 2) != 0
    if dtype.is_floating_point:
        return v.to(dtype)
    info = torch.iinfo(dtype)
    return v.round().clamp(info.min, info.max).to(dtype)


def random_sign(shape, g):
    """A float64 tensor of `shape` holding -1 or 1, each with probability 1/2, drawn from `g`."""
    return torch.randint(0, 2, shape, generator=g, dtype=torch.float64) * 2 - 1


def uniform(shape, lo, hi, g):
    """A float64 tensor of `shape` uniform in [lo, hi), drawn from `g`."""
    return lo + (hi - lo) * torch.rand(shape, generator=g, dtype=torch.float64)


def gen_arange(shape, i, g, start=1.0, step=1.0, per_input_offset=7.0):
    n = math.prod(shape)
    return (start + step * torch.arange(n, dtype=torch.float64) + per_input_offset * i).reshape(shape)


def gen_randn(shape, i, g):
    return torch.randn(shape, generator=g, dtype=torch.float64)


def gen_constant(value, per_input_step):
    return lambda shape, i, g: torch.full(shape, value + per_input_step * i, dtype=torch.float64)


def gen_sparse(shape, i, g, density=0.15, low=1.0, high=10.0):
    keep = torch.rand(shape, generator=g, dtype=torch.float64) < density
    v = torch.where(keep, random_sign(shape, g) * uniform(shape, low, high, g),
                    torch.zeros((), dtype=torch.float64))
    n = v.numel()
    if n > 0 and i == 0:  # input 0 has at least one nonzero
        k = int(torch.randint(0, n, (), generator=g))
        v.view(-1)[k] = float(uniform((), low, high, g))
    return v


def gen_magnitude(shape, i, g, min_exp=-3.0, max_exp=3.0):
    return random_sign(shape, g) * torch.pow(10.0, uniform(shape, min_exp, max_exp, g))


_TIES = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], dtype=torch.float64)


def gen_ties(shape, i, g):
    return _TIES[torch.randint(0, len(_TIES), shape, generator=g)]


DEFAULT_RECIPE = [
    ("arange", gen_arange),
    ("randn", gen_randn),
    ("zeros", gen_constant(0.0, 1.0)),
    ("ones", gen_constant(1.0, 1.0)),
    ("negative", gen_constant(-2.0, -1.0)),
    ("sparse", gen_sparse),
    ("mixed_magnitude", gen_magnitude),
    ("ties", gen_ties),
]


def generate(fn, shape, dtype, i, case_seed):
    """A complex tensor is its real view's values (shape + [2], drawn with the
    real dtype) viewed as complex (shrt/spec/generators.cc)."""
    if dtype.is_complex:
        real = generate(fn, tuple(shape) + (2,), real_dtype(dtype), i, case_seed)
        return torch.view_as_complex(real)
    return to_dtype(fn(tuple(shape), i, rng(mix_seed(case_seed, i))), dtype)
