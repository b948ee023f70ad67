"""The allowlists: which torch names a program may use, and which attributes of what.

Every name a program reaches is an entry here. `torch.sin` is the real function,
found in our table, never `getattr(torch, "sin")` on the user's say-so; an attribute
of a value is read only when its (type, name) pair is admitted by `attribute_allowed`.
"""

from __future__ import annotations

import difflib
import inspect
import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.data as tud
from torch import nn, optim

from gradtrace.identity import identity
from gradtrace.language import forward_ad, graph_hooks, transforms
from gradtrace.language.arrays import ARRAY_ATTRIBUTES, numpy_module
from gradtrace.language.callables import Checked
from gradtrace.language.classes import class_visible
from gradtrace.language.generators import ProgramGenerator
from gradtrace.language.pymodules import PLAIN_ATTRIBUTES as PY_ATTRIBUTES
from gradtrace.language.pymodules import TYPING_FORMS, namedtuple_field, python_modules
from gradtrace.language.values import ModuleTable, Namespace

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
pairwise_distance layer_norm batch_norm group_norm glu
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
fmod trunc degrees radians pi e inf nan tau prod fsum
""".split()


_DATALOADER_SIGNATURE = inspect.signature(tud.DataLoader.__init__)


class _DataLoader(tud.DataLoader):  # type: ignore[type-arg]
    """DataLoader without worker processes: a sandboxed job may not start any."""

    def __init__(self, dataset: Any, *args: Any, **kwargs: Any) -> None:
        # Bound as torch binds them, so a positional num_workers is seen too.
        try:
            bound = _DATALOADER_SIGNATURE.bind(self, dataset, *args, **kwargs).arguments
        except TypeError as exc:
            raise TypeError(f"DataLoader(): {exc}") from None
        for refused in ("num_workers", "worker_init_fn", "multiprocessing_context", "pin_memory"):
            if bound.get(refused):
                from gradtrace.language.errors import ForbiddenError

                raise ForbiddenError(
                    f"DataLoader({refused}=...) is not available in gradtrace: "
                    "leave it out (batches are loaded in the program's own process)"
                )
        super().__init__(dataset, *args, **kwargs)


_DataLoader.__name__ = "DataLoader"
_DataLoader.__qualname__ = "DataLoader"
_DataLoader.__module__ = "torch.utils.data.dataloader"


def _variable(data: Any, requires_grad: bool = False, volatile: bool | None = None) -> Any:
    """`torch.autograd.Variable`: today it returns a plain tensor, as torch does."""
    if volatile is not None:
        error = TypeError("Variable(volatile=...) was removed from PyTorch")
        error.gradtrace_hint = "`volatile=True` became `with torch.no_grad():`"  # type: ignore[attr-defined]
        raise error
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
        from gradtrace.language.errors import ForbiddenError

        raise ForbiddenError(
            f"this program runs on {current.type}; torch.set_default_device({str(wanted)!r}) "
            "cannot move it: choose the device with the run (the toolbar's device menu)"
        )


def _members(module: object, names: Iterable[str]) -> dict[str, Any]:
    return {name: getattr(module, name) for name in names if hasattr(module, name)}


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
            "DataLoader": _DataLoader,
            "TensorDataset": tud.TensorDataset,
            "random_split": tud.random_split,
            "Subset": tud.Subset,
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
        "linalg": linalg,
        "cuda": cuda,
        "func": func,
        "vmap": transforms.TORCH_FUNC["vmap"],  # torch.vmap is torch.func.vmap
    }
    torch_ns = Namespace("torch", members, torch)
    math_ns = Namespace("math", _members(math, _MATH), math)
    return {
        "torch": torch_ns,
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
        "torch.func": func,
        "torch.linalg": linalg,
        "torch.cuda": cuda,
        "torch.accelerator": accelerator,
        "math": math_ns,
        **python_modules(),
        **numpy_module(),
    }


MODULES: dict[str, Namespace] = _build()

#: identities of the torch functions in the tables: the calls whose sizes are checked first.
TORCH_CALLABLES: frozenset[int] = frozenset(
    identity(value)
    for ns in MODULES.values()
    for value in ns.members.values()
    if callable(value)
    and not isinstance(value, (Namespace, type))
    and identity(value) not in transforms.TRANSFORMS  # they run program code: no dry run
)

#: Imports refused with a pointer to what to use instead.
IMPORT_HINTS = {
    "torchvision": "torchvision is not available; build small models from torch.nn",
}

# ---------------------------------------------------------------------------
# Attributes of values
# ---------------------------------------------------------------------------

_TENSOR_METHODS = frozenset(
    """
abs absolute acos add addmm addmv all allclose amax amin any argmax argmin argsort
asin atan atan2 backward bernoulli bfloat16 bmm bool byte ceil char chunk clamp clamp_max
clamp_min clip clone contiguous copy_ cos cosh count_nonzero cpu cross cuda cummax
cummin cumprod cumsum deg2rad detach diag diag_embed diagonal diff dim dist div divide
dot double eq equal erf erfinv exp exp2 expand expand_as expm1 fill_ fill_diagonal_
flatten flip fliplr flipud float floor floor_divide fmod frac gather ge get_device
greater gt half hardshrink heaviside index_add index_add_ index_copy index_fill
index_fill_ index_put index_select int is_complex is_contiguous is_floating_point is_inference
isclose isfinite isinf isnan is_nonzero is_set_to isneginf isposinf item kthvalue
le lerp lgamma log log10 log1p log2 log_softmax logaddexp logical_and logical_not
logical_or logical_xor logit logsumexp long lt masked_fill masked_fill_ masked_scatter
masked_select matmul max maximum mean median min minimum mm mode moveaxis movedim mul
multiply multinomial mv nan_to_num nanmean nanmedian nansum narrow ndimension ne neg
negative new_empty new_full new_ones new_tensor new_zeros nelement nonzero norm
normal_ not_equal numel outer permute pow prod put_ quantile rad2deg random_
reciprocal register_hook register_post_accumulate_grad_hook relu remainder repeat
repeat_interleave requires_grad_ reshape reshape_as retain_grad roll rot90 round
rsqrt scatter scatter_ scatter_add scatter_add_ select sgn short sigmoid sign sin sinh
size slice_scatter softmax sort split sqrt square squeeze std sub subtract sum sum_to_size
swapaxes swapdims t take tan tanh tile to tolist topk trace transpose tril triu
true_divide trunc type type_as unbind unflatten unfold uniform_ unique unsqueeze var
view view_as where xlogy zero_ abs_ add_ addmm_ clamp_ clamp_min_ clamp_max_ cos_
detach_ div_ exp_ floor_ ceil_ log_ mul_ neg_ pow_ relu_ round_ sigmoid_ sign_ sin_
sqrt_ squeeze_ sub_ t_ tanh_ transpose_ unsqueeze_ exponential_ lerp_ remainder_
fmod_ reciprocal_ square_ trunc_ frac_ abs_ cumsum_ tril_ triu_ index_put_ scatter_reduce
aminmax logcumsumexp nanquantile bincount histc argwhere numpy
""".split()
)

_TENSOR_ATTRIBUTES = frozenset(
    """
shape dtype device grad data requires_grad is_leaf grad_fn T mT H mH ndim is_cuda
real imag layout output_nr retains_grad is_sparse is_cpu is_xpu is_mps is_meta is_quantized
""".split()
)

#: Tensor attributes a program may assign.
TENSOR_SETTABLE = frozenset({"data", "grad", "requires_grad"})

_NODE_ATTRIBUTES = frozenset(
    {"name", "next_functions", "metadata", "register_hook", "register_prehook", "variable"}
)
_CTX_ATTRIBUTES = frozenset(
    {
        "save_for_backward", "saved_tensors", "needs_input_grad", "mark_dirty",
        "mark_non_differentiable", "set_materialize_grads", "name", "next_functions",
        "metadata", "register_hook", "register_prehook",
    }
)  # fmt: skip
_MODULE_ATTRIBUTES = frozenset(
    """
parameters named_parameters buffers named_buffers children named_children modules
named_modules zero_grad train eval forward to cpu cuda double float half requires_grad_
apply state_dict load_state_dict register_buffer register_parameter add_module training
append extend insert get_parameter get_submodule keys values items
register_forward_hook register_forward_pre_hook register_full_backward_hook
register_full_backward_pre_hook
""".split()
)
_OPTIMIZER_ATTRIBUTES = frozenset(
    {"step", "zero_grad", "param_groups", "state", "defaults", "add_param_group"}
)
_SCHEDULER_ATTRIBUTES = frozenset({"step", "get_last_lr", "last_epoch", "optimizer"})

_PLAIN_ATTRIBUTES: dict[type, frozenset[str]] = {
    str: frozenset(
        """
capitalize center count endswith find format index isalnum isalpha isdigit islower
isnumeric isspace istitle isupper join ljust lower lstrip partition removeprefix
removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines
startswith strip swapcase title upper zfill
""".split()
    ),
    list: frozenset("append clear copy count extend index insert pop remove reverse sort".split()),
    dict: frozenset("clear copy get items keys pop popitem setdefault update values".split()),
    tuple: frozenset({"count", "index"}),
    set: frozenset(
        "add clear copy difference discard intersection issubset issuperset pop remove union update".split()
    ),
    frozenset: frozenset("copy difference intersection issubset issuperset union".split()),
    int: frozenset({"bit_length", "real", "imag", "conjugate", "numerator", "denominator"}),
    float: frozenset({"is_integer", "real", "imag", "conjugate", "hex"}),
    complex: frozenset({"real", "imag", "conjugate"}),
    bool: frozenset({"real", "imag"}),
    range: frozenset({"start", "stop", "step", "index", "count"}),
    slice: frozenset({"start", "stop", "step"}),
    torch.Size: frozenset({"numel", "count", "index"}),
    torch.dtype: frozenset({"is_floating_point", "is_complex", "is_signed", "itemsize"}),
    torch.device: frozenset({"type", "index"}),
    torch.Generator: frozenset(
        {"manual_seed", "initial_seed", "seed", "device", "get_state", "set_state"}
    ),
    torch.finfo: frozenset({"eps", "max", "min", "tiny", "bits", "resolution"}),
    torch.iinfo: frozenset({"max", "min", "bits"}),
    tud.TensorDataset: frozenset({"tensors"}),
    torch.autograd.forward_ad.UnpackedDualTensor: forward_ad.UNPACKED_FIELDS,
    ModuleTable: frozenset({"keys", "values", "items", "get"}),
    ProgramGenerator: frozenset({"send", "close"}),
    _DataLoader: frozenset({"dataset", "batch_size", "drop_last"}),
}

_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})


# What torch itself keeps in a Module's __dict__ (`_parameters`, `_forward_hooks`...):
# never the program's, whatever the Module.
_MODULE_INTERNALS = frozenset(nn.Module().__dict__)


def is_program_object(obj: object) -> bool:
    """An instance of one of the program's classes (plain, Module or Function)."""
    return any("gradtrace_members" in klass.__dict__ for klass in type(obj).__mro__)


def _private_allowed(obj: object, name: str) -> bool:
    """`obj._name` and the few dunders a program reads: only on its own objects and classes
    (and the saved tensors of an autograd Node, which lessons show)."""
    if name.startswith("__") and name.endswith("__"):
        if name == "__class__":  # what type(obj) answers, for the same objects
            return class_visible(obj)
        if name in ("__name__", "__qualname__"):
            return isinstance(obj, type)
        return False
    if isinstance(obj, type):
        return user_class_member(obj, name)
    if namedtuple_field(obj, name):  # _asdict, _replace, _fields
        return True
    if isinstance(obj, torch.autograd.graph.Node):
        return name.startswith(("_saved_", "_raw_saved_"))
    if not is_program_object(obj):
        return False
    if isinstance(obj, nn.Module) and name in _MODULE_INTERNALS:
        return False
    return name in getattr(obj, "__dict__", {}) or user_class_member(type(obj), name)


def private_settable(obj: object, name: str) -> bool:
    """Whether a program may set `obj._name` on its Module or a Function's ctx: a name of
    its own, never one torch keeps there (`_parameters`, `_forward_hooks`, methods)."""
    if name.startswith("__") and name.endswith("__"):
        return False
    if not isinstance(obj, nn.Module):
        return False
    if user_class_member(type(obj), name):
        return True
    return not hasattr(type(obj), name) and name not in _MODULE_INTERNALS


def settable_on_program_object(obj: object, name: str) -> bool:
    """Whether a program may set `obj.name` on an object of its own plain classes (or on
    the class itself): any name of its own, never a dunder, nor the list of its members
    that marks a class as the program's (what admits reading them)."""
    if (name.startswith("__") and name.endswith("__")) or name == "gradtrace_members":
        return False
    if isinstance(obj, type):
        return "gradtrace_members" in obj.__dict__ and not issubclass(
            obj, (nn.Module, torch.autograd.Function)
        )
    return is_program_object(obj) and not isinstance(obj, (nn.Module, torch.autograd.Function))


def deletable(obj: object, name: str) -> bool:
    """Whether a program may `del obj.name` (or `delattr`): what it may set and holds.

    On a Module: an entry of its parameter, buffer or submodule tables, or an attribute of
    the program's own; on a Function's ctx, what the program set there; on its own objects
    and classes, their names. Never a tensor's, never a method torch calls."""
    if name.startswith("__") and name.endswith("__"):
        return False
    if isinstance(obj, nn.Module):
        if name.startswith("_") and not private_settable(obj, name):
            return False
        tables = [obj.__dict__.get(t, {}) for t in ("_parameters", "_buffers", "_modules")]
        return any(name in table for table in tables) or (
            name in obj.__dict__ and name not in _MODULE_INTERNALS
        )
    if isinstance(obj, torch.autograd.function.BackwardCFunction):
        return not name.startswith("_") and name in obj.__dict__
    return settable_on_program_object(obj, name)


def attribute_allowed(obj: object, name: str) -> bool:
    """Whether a program may read `obj.name`."""
    if name.startswith("_"):
        return _private_allowed(obj, name)
    kind = type(obj)
    if isinstance(obj, torch.Tensor):
        return name in _TENSOR_METHODS or name in _TENSOR_ATTRIBUTES
    if isinstance(obj, (np.ndarray, np.generic)):  # arrays and numpy's scalars
        return name in ARRAY_ATTRIBUTES
    allowed = _PLAIN_ATTRIBUTES.get(kind) or PY_ATTRIBUTES.get(kind)
    if allowed is not None:
        return name in allowed
    if namedtuple_field(obj, name):
        return True
    if isinstance(obj, nn.Module):
        if name in _MODULE_ATTRIBUTES:
            return True
        for table in ("_parameters", "_modules", "_buffers"):
            if name in obj.__dict__.get(table, {}):
                return True
        return name in obj.__dict__ or user_class_member(kind, name)
    if isinstance(obj, torch.autograd.function.BackwardCFunction):
        return name in _CTX_ATTRIBUTES or name in obj.__dict__
    if isinstance(obj, torch.autograd.graph.Node):
        return name in _NODE_ATTRIBUTES
    if isinstance(obj, optim.Optimizer):
        return name in _OPTIMIZER_ATTRIBUTES
    if isinstance(obj, optim.lr_scheduler.LRScheduler):
        return name in _SCHEDULER_ATTRIBUTES
    if isinstance(obj, torch.utils.hooks.RemovableHandle):
        return name == "remove"
    if isinstance(obj, BaseException):
        return name == "args"
    if isinstance(obj, type):
        return _class_attribute_allowed(obj, name)
    if isinstance(obj, tuple) and kind.__module__ == "torch.return_types":
        # max(dim=...), sort(), topk(): structseqs whose fields are named `values`, `indices`...
        return name in getattr(kind, "__match_args__", ()) or name in ("count", "index")
    if is_program_object(obj):  # a plain class of the program: its attributes and methods
        return name in getattr(obj, "__dict__", {}) or user_class_member(kind, name)
    return False


def readable_names(obj: object) -> frozenset[str]:
    """The attributes a program may read on `obj` (for a refusal to suggest one)."""
    if isinstance(obj, torch.Tensor):
        return _TENSOR_METHODS | _TENSOR_ATTRIBUTES
    if isinstance(obj, (np.ndarray, np.generic)):
        return ARRAY_ATTRIBUTES
    if isinstance(obj, nn.Module):
        return _MODULE_ATTRIBUTES
    if isinstance(obj, optim.Optimizer):
        return _OPTIMIZER_ATTRIBUTES
    if isinstance(obj, torch.autograd.graph.Node):
        return _NODE_ATTRIBUTES
    return _PLAIN_ATTRIBUTES.get(type(obj)) or PY_ATTRIBUTES.get(type(obj)) or frozenset()


_FILES = "programs cannot read or write files: build the data in the program, print what you need"
_MEMORY = "a program does not see memory addresses or storages: use .shape, .dtype and the values"
_REFUSAL_HINTS = {
    "save": _FILES,
    "load": _FILES,
    "hub": "nothing is downloaded: build the model from torch.nn",
    "storage": _MEMORY,
    "untyped_storage": _MEMORY,
    "data_ptr": _MEMORY,
    "compile": "torch.compile is not available: gradtrace shows the eager graph",
    "jit": "TorchScript is not available: gradtrace shows the eager graph",
}


def refusal_hint(name: str, candidates: Iterable[str], what: str) -> str:
    """What to write instead of a refused name: the closest admitted ones, or where the
    admitted ones are listed."""
    known = _REFUSAL_HINTS.get(name)
    if known:
        return known
    close = difflib.get_close_matches(name, sorted(candidates), n=3, cutoff=0.75)
    if close:
        return "closest that gradtrace has: " + ", ".join(f"`{c}`" for c in close)
    return f"the {what} a program may use are in the reference (the editor's autocomplete)"


def class_method_allowed(cls: type, name: str) -> bool:
    """A method read off a plain class (`str.upper`, `torch.Tensor.add`): it is called
    with the instance first, and checked as that instance's method."""
    if issubclass(cls, torch.Tensor):
        return name in _TENSOR_METHODS
    allowed = _PLAIN_ATTRIBUTES.get(cls)
    return allowed is not None and name in allowed and callable(getattr(cls, name, None))


def super_allowed(klass: type, obj: object, name: str) -> bool:
    """Whether `super().name` may resolve to `klass.name` (the class that defines it);
    `obj` is an instance of one of the program's classes."""
    members = klass.__dict__.get("gradtrace_members")
    if members is not None:
        return name in members
    if name == "__init__":
        return True
    if isinstance(obj, nn.Module) and issubclass(klass, nn.Module):
        return name in _MODULE_ATTRIBUTES
    return False


_NAMESPACE_FUNCTIONS: dict[int, Checked] = {}


def namespace_member(member: Any, name: str) -> Any:
    """A member of a Namespace as a program receives it: its functions as Checked (made
    once, as members live as long as the process)."""
    if not callable(member) or isinstance(member, (type, Namespace)) or id(member) in TYPING_FORMS:
        return member
    key = identity(member)
    wrapped = _NAMESPACE_FUNCTIONS.get(key)
    if wrapped is None:
        wrapped = _NAMESPACE_FUNCTIONS[key] = Checked(member, None, name)
    return wrapped


def user_class_member(kind: type, name: str) -> bool:
    """A method or class attribute the program itself wrote on one of its classes."""
    for klass in kind.__mro__:
        members = klass.__dict__.get("gradtrace_members")
        if members is not None and name in members:
            return True
    return False


def _class_attribute_allowed(cls: type, name: str) -> bool:
    if issubclass(cls, torch.autograd.Function) and name == "apply":
        return True
    return user_class_member(cls, name)


def width_method(name: str) -> bool:
    return name in _WIDTH_METHODS


# ---------------------------------------------------------------------------
# The autocomplete and docs list
# ---------------------------------------------------------------------------


def reference_entries() -> list[Any]:
    from gradtrace.language.builtins import BUILTIN_NAMES
    from gradtrace.language.reference import ReferenceEntry

    entries: list[ReferenceEntry] = []
    seen: set[str] = set()

    def add(name: str, kind: Any, detail: str | None = None) -> None:
        if name not in seen:
            seen.add(name)
            entries.append(ReferenceEntry(name=name, kind=kind, detail=detail))

    for path, ns in MODULES.items():
        add(path, "module", f"import {path}")
        for member, value in ns.members.items():
            full = f"{path}.{member}"
            if isinstance(value, Namespace):
                continue
            if isinstance(value, type):
                add(full, "class", _first_line(value.__doc__))
            elif callable(value):
                add(full, "function", _first_line(getattr(value, "__doc__", None)))
            else:
                add(full, "attribute", repr(value))
    for name in sorted(_TENSOR_METHODS):
        add(
            f"Tensor.{name}",
            "method",
            _first_line(getattr(getattr(torch.Tensor, name, None), "__doc__", None)),
        )
    for name in sorted(_TENSOR_ATTRIBUTES):
        add(f"Tensor.{name}", "attribute")
    for name in sorted(_MODULE_ATTRIBUTES):
        add(f"Module.{name}", "method")
    for name in sorted(BUILTIN_NAMES):
        add(name, "builtin")
    return entries


def _first_line(doc: str | None) -> str | None:
    if not doc:
        return None
    for line in doc.strip().splitlines():
        line = line.strip()
        if line:
            return line[:160]
    return None
