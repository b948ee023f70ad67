"""The allowlists: which torch names a program may use, and which attributes of what.

Every name a program reaches is an entry here. `torch.sin` is the real function,
found in our table, never `getattr(torch, "sin")` on the user's say-so; an attribute
of a value is read only when its (type, name) pair is admitted by `attribute_allowed`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.data as tud
from torch import nn, optim

from gradtrace.identity import identity
from gradtrace.language import (
    arguments,
    backends,
    distributions,
    forward_ad,
    graph_hooks,
    math_counts,
    plots,
    progress,
    py_warnings,
    signatures,
    transforms,
)
from gradtrace.language.arrays import numpy_module
from gradtrace.language.copying import deepcopy
from gradtrace.language.dataloaders import (
    DataLoader,
    RandomSampler,
    SequentialSampler,
    random_split,
)
from gradtrace.language.errors import ForbiddenError
from gradtrace.language.np_random import random_namespace
from gradtrace.language.pymodules import python_modules
from gradtrace.language.values import Namespace

# ---------------------------------------------------------------------------
# torch
# ---------------------------------------------------------------------------

_TORCH_FUNCTIONS = """
tensor as_tensor zeros ones full empty arange linspace logspace eye rand randn randint
randperm normal bernoulli multinomial poisson zeros_like ones_like full_like empty_like
rand_like randn_like randint_like manual_seed initial_seed
sin cos tan asin acos atan atan2 arcsin arccos arctan sinh cosh tanh asinh acosh atanh
exp exp2 expm1 log log2 log10 log1p sqrt rsqrt abs absolute neg negative sign sgn
sigmoid relu floor ceil round trunc frac clamp clip clamp_min clamp_max pow square
reciprocal add sub subtract mul multiply div divide true_divide floor_divide remainder
fmod maximum minimum fmax fmin max min sum mean nansum nanmean prod std var std_mean
var_mean norm dist argmax argmin amax amin aminmax cumsum cumprod cummax cummin
logsumexp logcumsumexp softmax log_softmax mm matmul bmm dot vdot mv t transpose
outer ger addmm addmv addbmm baddbmm einsum tensordot kron cross reshape squeeze
unsqueeze cat concat concatenate stack hstack vstack dstack flatten unflatten permute
movedim swapaxes swapdims index_select gather scatter scatter_add where masked_fill
masked_select take take_along_dim chunk split tensor_split unbind narrow flip fliplr
flipud roll rot90 tril triu diag diagonal diag_embed diagflat trace allclose isclose
equal eq ne lt le gt ge greater less greater_equal less_equal not_equal isnan isinf
isfinite isposinf isneginf nan_to_num any all sort argsort topk kthvalue msort unique
unique_consecutive numel is_tensor is_floating_point is_complex is_nonzero
is_grad_enabled set_grad_enabled no_grad enable_grad inference_mode is_inference_mode_enabled
broadcast_tensors broadcast_to broadcast_shapes meshgrid lerp erf erfc erfinv hypot
logaddexp logaddexp2 logical_and logical_or logical_not logical_xor bitwise_and
bitwise_or bitwise_xor bitwise_not count_nonzero nonzero median nanmedian mode
quantile nanquantile histc bincount bucketize searchsorted cdist cosine_similarity
pairwise_distance deg2rad rad2deg heaviside xlogy sinc logit mvlgamma lgamma digamma
polygamma i0 diff gradient tile repeat_interleave detach clone squeeze_copy
get_default_dtype set_default_dtype set_printoptions result_type promote_types
can_cast finfo iinfo flatten std cov corrcoef tril triu block_diag cartesian_prod
atleast_1d atleast_2d atleast_3d column_stack row_stack vsplit hsplit dsplit from_numpy
sin_ cos_ tan_ exp_ log_ sqrt_ relu_ sigmoid_ tanh_ abs_ neg_ ceil_ floor_ round_ trunc_
frac_ reciprocal_ rsqrt_ clamp_ clip_ square_ erf_ exp2_ expm1_ log1p_ log2_ log10_ asin_
acos_ atan_ sinh_ cosh_ deg2rad_ rad2deg_ fill_ zero_
svd det logdet slogdet inverse pinverse qr matrix_power matrix_exp
""".split()

_TORCH_CLASSES = ["Tensor", "Size", "device", "dtype", "Generator"]

# The legacy constructors (torch.LongTensor([1, 2]), torch.FloatTensor(2, 3)) that older
# tutorials write; the CPU ones only. Each makes a plain torch.Tensor of its dtype.
LEGACY_TENSOR_TYPES = """
FloatTensor DoubleTensor HalfTensor BFloat16Tensor LongTensor IntTensor ShortTensor
CharTensor ByteTensor BoolTensor
""".split()

_DTYPES = """
float32 float float64 double float16 half bfloat16 int8 uint8 int16 short int32 int
int64 long bool complex64 cfloat complex128 cdouble
""".split()

_TORCH_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}

_LINALG = "norm vector_norm matrix_norm det slogdet inv pinv solve eig eigh eigvals eigvalsh svd svdvals qr cholesky lstsq matrix_rank cross matmul vecdot".split()

_NN_CLASSES = """
Module Parameter Linear Bilinear Identity Flatten Unflatten Sequential ModuleList
ModuleDict ParameterList ParameterDict Conv1d Conv2d ConvTranspose2d MaxPool1d MaxPool2d
AvgPool1d AvgPool2d AdaptiveAvgPool2d BatchNorm1d BatchNorm2d LayerNorm GroupNorm
Dropout Embedding RNN RNNCell LSTM LSTMCell GRU GRUCell ReLU ReLU6 LeakyReLU ELU SELU
CELU GELU SiLU Mish Sigmoid Tanh Softmax LogSoftmax Softplus Softsign Hardtanh
Hardsigmoid Hardswish PReLU Threshold LogSigmoid MSELoss L1Loss SmoothL1Loss HuberLoss
CrossEntropyLoss NLLLoss BCELoss BCEWithLogitsLoss KLDivLoss CosineSimilarity
PairwiseDistance MarginRankingLoss HingeEmbeddingLoss LazyLinear LazyConv1d LazyConv2d
LazyConvTranspose2d LazyBatchNorm1d LazyBatchNorm2d Dropout1d Dropout2d PixelShuffle
PixelUnshuffle MultiheadAttention Transformer TransformerEncoder TransformerDecoder
TransformerEncoderLayer TransformerDecoderLayer
""".split()

_F_FUNCTIONS = """
relu relu6 leaky_relu elu selu celu gelu silu mish sigmoid tanh softplus softsign
softmax softmin log_softmax hardtanh hardsigmoid hardswish logsigmoid threshold prelu
mse_loss l1_loss smooth_l1_loss huber_loss cross_entropy nll_loss binary_cross_entropy
binary_cross_entropy_with_logits kl_div margin_ranking_loss hinge_embedding_loss
one_hot linear bilinear dropout normalize pad conv1d conv2d conv_transpose2d max_pool1d
max_pool2d avg_pool1d avg_pool2d adaptive_avg_pool2d embedding cosine_similarity
pairwise_distance layer_norm batch_norm group_norm glu scaled_dot_product_attention
""".split()

_INIT = """
zeros_ ones_ constant_ normal_ uniform_ xavier_uniform_ xavier_normal_ kaiming_uniform_
kaiming_normal_ eye_ orthogonal_ trunc_normal_ calculate_gain
""".split()

_OPTIMIZERS = "Optimizer SGD Adam AdamW RMSprop Adagrad Adadelta Adamax LBFGS".split()
_SCHEDULERS = (
    "StepLR MultiStepLR ExponentialLR CosineAnnealingLR LambdaLR ReduceLROnPlateau".split()
)

_MATH = """
sqrt exp log log2 log10 log1p expm1 sin cos tan asin acos atan atan2 sinh cosh tanh
floor ceil fabs isclose isnan isinf isfinite hypot erf erfc gamma lgamma copysign
fmod trunc degrees radians pi e inf nan tau prod fsum gcd isqrt frexp ldexp modf
remainder
""".split()


def _variable(data: Any, requires_grad: bool = False, volatile: bool | None = None) -> Any:
    """`torch.autograd.Variable`: today it returns a plain tensor, as torch does."""
    if volatile is not None:
        error = TypeError("Variable(volatile=...) was removed from PyTorch")
        error.gradtrace_hint = "`volatile=True` became `with torch.no_grad():`"  # type: ignore[attr-defined]
        try:
            raise error
        finally:
            del error  # this frame, in the traceback, would hold the exception: a cycle
    tensor = data if isinstance(data, torch.Tensor) else torch.tensor(data)
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def manual_seed(seed: int) -> torch.Generator:
    """`torch.manual_seed` without its lazy CUDA call when CUDA is not in use.

    torch queues a deferred CUDA seeding, with a formatted stack trace, on every call
    before CUDA is initialised: in a long-lived worker that queue only grows.
    """
    generator = torch.default_generator.manual_seed(int(seed))
    if torch.cuda.is_initialized():
        torch.cuda.manual_seed_all(int(seed))
    mps = getattr(torch, "mps", None)
    if mps is not None and torch.backends.mps.is_available():
        mps.manual_seed(int(seed))
    return generator


def _cuda_seed_value(seed: Any) -> int:
    # torch's own conversion, int(seed), on numbers and text only: not on the program's
    # objects, whose __int__ would run from here.
    if not isinstance(seed, (int, float, str, np.integer, np.floating)):
        raise TypeError(
            "int() argument must be a string, a bytes-like object or a real number, "
            f"not '{type(seed).__name__}'"
        )
    return int(seed)


def _seed_job_gpu(seed: Any) -> None:
    value = _cuda_seed_value(seed)
    device = _job_device()
    if device.type != "cuda":
        # torch queues the call until CUDA starts: a job without CUDA never starts it,
        # and in a long-lived worker the queue would only grow.
        return
    index = device.index if device.index is not None else torch.cuda.current_device()
    torch.cuda.default_generators[index].manual_seed(value)


def cuda_manual_seed(seed: Any) -> None:
    """`torch.cuda.manual_seed`: seeds the job's GPU; without CUDA, nothing."""
    _seed_job_gpu(seed)


def cuda_manual_seed_all(seed: Any) -> None:
    """`torch.cuda.manual_seed_all`: seeds the job's GPU (the only one it uses; the
    others, which other jobs use, are not the program's); without CUDA, nothing."""
    _seed_job_gpu(seed)


def _job_device() -> torch.device:
    # A job runs inside `with torch.device(...)` for the device it asked for.
    return torch.get_default_device()


def _accelerator_is_available() -> bool:
    """`torch.accelerator.is_available()` as the job sees it: whether it runs on one."""
    return _job_device().type != "cpu"


def _current_accelerator(check_available: bool = False) -> torch.device | None:
    device = _job_device()
    return None if device.type == "cpu" else torch.device(device.type)


def set_default_device(device: Any) -> None:
    """`torch.set_default_device`: the job's device is chosen with the request, so only
    that device may be named here (the call is then a no-op, as in the program's run)."""
    wanted = torch.device(device) if device is not None else torch.device("cpu")
    current = _job_device()
    if wanted.type != current.type:
        raise ForbiddenError(
            f"this program runs on {current.type}; torch.set_default_device({str(wanted)!r}) "
            "cannot move it: choose the device with the run (the toolbar's device menu)"
        )


def _members(module: object, names: Iterable[str]) -> dict[str, Any]:
    return {name: getattr(module, name) for name in names if hasattr(module, name)}


def _matplotlib() -> dict[str, Namespace]:
    """matplotlib (plots.py), with pyplot as its attribute too (`import matplotlib.pyplot`,
    then `matplotlib.pyplot.plot`)."""
    pyplot = Namespace("matplotlib.pyplot", dict(plots.MEMBERS), None)
    top = Namespace("matplotlib", {**plots.MATPLOTLIB, "pyplot": pyplot}, None)
    return {"matplotlib": top, "matplotlib.pyplot": pyplot}


def _build() -> dict[str, Namespace]:
    linalg = Namespace("torch.linalg", _members(torch.linalg, _LINALG), torch.linalg)
    functional = Namespace("torch.nn.functional", _members(F, _F_FUNCTIONS), F)
    init = Namespace("torch.nn.init", _members(nn.init, _INIT), nn.init)
    parameter = Namespace("torch.nn.parameter", {"Parameter": nn.Parameter}, nn.parameter)
    nn_utils = Namespace(
        "torch.nn.utils",
        _members(nn.utils, ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector"]),
        nn.utils,
    )
    nn_ns = Namespace(
        "torch.nn",
        {
            **_members(nn, _NN_CLASSES),
            "functional": functional,
            "init": init,
            "parameter": parameter,
            "utils": nn_utils,
        },
        nn,
    )
    scheduler = Namespace(
        "torch.optim.lr_scheduler",
        _members(optim.lr_scheduler, _SCHEDULERS),
        optim.lr_scheduler,
    )
    optim_ns = Namespace(
        "torch.optim", {**_members(optim, _OPTIMIZERS), "lr_scheduler": scheduler}, optim
    )
    data = Namespace(
        "torch.utils.data",
        {
            "DataLoader": DataLoader,
            "Dataset": tud.Dataset,  # a base for the program's classes (classes.py)
            "IterableDataset": tud.IterableDataset,
            "TensorDataset": tud.TensorDataset,
            "random_split": random_split,
            "Subset": tud.Subset,
            "RandomSampler": RandomSampler,
            "SequentialSampler": SequentialSampler,
        },
        tud,
    )
    utils = Namespace("torch.utils", {"data": data}, torch.utils)
    graph = Namespace("torch.autograd.graph", dict(graph_hooks.MEMBERS), torch.autograd.graph)
    fw_ad = Namespace(
        "torch.autograd.forward_ad", dict(forward_ad.MEMBERS), torch.autograd.forward_ad
    )
    autograd_functional = Namespace(
        "torch.autograd.functional", dict(transforms.AUTOGRAD_FUNCTIONAL), torch.autograd.functional
    )
    func = Namespace("torch.func", dict(transforms.TORCH_FUNC), torch.func)
    function = Namespace(
        "torch.autograd.function",
        {
            "Function": torch.autograd.Function,
            "once_differentiable": torch.autograd.function.once_differentiable,
        },
        torch.autograd.function,
    )
    autograd = Namespace(
        "torch.autograd",
        {
            "function": function,
            "graph": graph,
            "forward_ad": fw_ad,
            "functional": autograd_functional,
            "grad": torch.autograd.grad,
            "backward": torch.autograd.backward,
            "Function": torch.autograd.Function,
            "Variable": _variable,
            "gradcheck": torch.autograd.gradcheck,
            "gradgradcheck": torch.autograd.gradgradcheck,
        },
        torch.autograd,
    )
    cuda = Namespace(
        "torch.cuda",
        {
            "is_available": torch.cuda.is_available,
            "device_count": torch.cuda.device_count,
            "synchronize": torch.cuda.synchronize,
            "manual_seed": cuda_manual_seed,
            "manual_seed_all": cuda_manual_seed_all,
        },
        torch.cuda,
    )
    accelerator = Namespace(
        "torch.accelerator",
        {
            "is_available": _accelerator_is_available,
            "current_accelerator": _current_accelerator,
        },
        torch.accelerator,
    )
    distributions_ns = Namespace(
        "torch.distributions",
        {**distributions.FAMILIES, "kl_divergence": torch.distributions.kl_divergence},
        torch.distributions,
    )
    members: dict[str, Any] = {
        **_members(torch, _TORCH_FUNCTIONS),
        "manual_seed": manual_seed,
        "set_default_device": set_default_device,
        "get_default_device": _job_device,
        "accelerator": accelerator,
        **_members(torch, _TORCH_CLASSES),
        **_members(torch, LEGACY_TENSOR_TYPES),
        **_members(torch, _DTYPES),
        **_TORCH_CONSTANTS,
        "nn": nn_ns,
        "optim": optim_ns,
        "utils": utils,
        "autograd": autograd,
        "distributions": distributions_ns,
        "linalg": linalg,
        "cuda": cuda,
        "backends": backends.BACKENDS,
        "func": func,
        "vmap": transforms.TORCH_FUNC["vmap"],  # torch.vmap is torch.func.vmap
        # torch's is a TorchVersion, a str subclass whose methods would skip the checks
        # keyed on `type(x) is str`: the program gets the plain text.
        "__version__": str(torch.__version__),
    }
    # torch.functional: the module torch's own einsum, norm, split... come from; a tutorial
    # imports it, and it offers only what `torch` itself admits.
    torch_functional = Namespace(
        "torch.functional",
        _members(torch.functional, [n for n in _TORCH_FUNCTIONS if n in torch.functional.__all__]),
        torch.functional,
    )
    members["functional"] = torch_functional
    torch_ns = Namespace("torch", members, torch)
    math_ns = Namespace("math", {**_members(math, _MATH), **math_counts.MEMBERS}, math)
    return {
        "torch": torch_ns,
        "torch.functional": torch_functional,
        "torch.nn": nn_ns,
        "torch.nn.functional": functional,
        "torch.nn.init": init,
        "torch.nn.parameter": parameter,
        "torch.nn.utils": nn_utils,
        "torch.optim": optim_ns,
        "torch.optim.lr_scheduler": scheduler,
        "torch.utils": utils,
        "torch.utils.data": data,
        "torch.autograd": autograd,
        "torch.autograd.function": function,
        "torch.autograd.graph": graph,
        "torch.autograd.forward_ad": fw_ad,
        "torch.autograd.functional": autograd_functional,
        "torch.distributions": distributions_ns,
        "torch.func": func,
        "torch.linalg": linalg,
        "torch.cuda": cuda,
        "torch.accelerator": accelerator,
        "torch.backends": backends.BACKENDS,
        "torch.backends.cudnn": backends.CUDNN,
        "torch.backends.mps": backends.MPS,
        "math": math_ns,
        **python_modules(),
        "copy": Namespace("copy", {"deepcopy": deepcopy}, None),
        "argparse": Namespace("argparse", dict(arguments.MEMBERS), None),
        "inspect": Namespace("inspect", dict(signatures.MEMBERS), None),
        "warnings": Namespace("warnings", dict(py_warnings.MEMBERS), None),
        **{
            name: Namespace(name, dict(progress.MEMBERS), None)
            for name in ("tqdm", "tqdm.auto", "tqdm.notebook", "tqdm.autonotebook")
        },
        **_matplotlib(),
        **numpy_module(random_namespace()),
    }


MODULES: dict[str, Namespace] = _build()

#: Namespaces whose functions are given tensors and compute with them (math.prod and
#: operator.mul broadcast them too). Not `random` or `numpy.random`, whose state a dry run
#: would move (a program's numbers would no longer be CPython's), nor functools,
#: itertools and the rest, which make no tensors and may run program code.
_SIZED_NAMESPACES = ("torch", "math", "operator", "numpy")

#: The torch functions in the tables, by identity, with their `__name__` ("" for one
#: without): the calls whose sizes are checked first, by the rules for that name.
TORCH_CALLABLES: dict[int, str] = {
    identity(value): str(getattr(value, "__name__", ""))
    for name, ns in MODULES.items()
    if name.startswith(_SIZED_NAMESPACES) and name != "numpy.random"
    for value in ns.members.values()
    if callable(value)
    and not isinstance(value, (Namespace, type))
    and identity(value) not in transforms.TRANSFORMS  # they run program code: no dry run
}

#: Imports refused with a pointer to what to use instead, by top-level module or full name.
IMPORT_HINTS = {
    "torchvision": "torchvision is not available; build small models from torch.nn",
    "torchaudio": "torchaudio is not available; make the signals with torch (torch.sin, "
    "torch.randn)",
    "torchtext": "torchtext is not available; make the vocabulary a dict and the batches "
    "tensors (torch.tensor)",
    "datetime": "a trace must come out the same on every run, so it cannot read the clock; "
    "drop the timestamps",
    "torch.utils.tensorboard": "TensorBoard is not available; print the numbers instead: the "
    "page plots the losses a training loop prints",
    "tqdm": "`from tqdm import tqdm, trange` (or from tqdm.auto, tqdm.notebook) is available; "
    "tqdm's other parts are not",
    "matplotlib": "`import matplotlib.pyplot as plt` is available: plt.plot's lines go to the "
    "page's Training panel; matplotlib's other parts are not",
    "pandas": "put the data in tensors (torch.tensor) or lists",
    "sklearn": "make the data with torch (torch.randn, torch.linspace) and the model with torch.nn",
    "os": "programs cannot reach the server's files, processes or environment",
    "sys": "programs cannot reach the interpreter's state; print() writes to the page",
    "pathlib": "programs cannot read or write files; put the data in the program",
    "pickle": "programs cannot read or write files; put the data in the program",
}
