"""The allowlists: which torch names a program may use, and which attributes of what.

Every name a program reaches is an entry here. `torch.sin` is the real function,
found in our table, never `getattr(torch, "sin")` on the user's say-so; an attribute
of a value is read only when its (type, name) pair is admitted by `attribute_allowed`.
"""

from __future__ import annotations

import copy
import inspect
import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.data as tud
from torch import nn, optim

from gradtrace.identity import identity
from gradtrace.language import callables, forward_ad, graph_hooks, transforms
from gradtrace.language.arrays import numpy_module
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.limits import Limits
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


def _job_limits() -> Limits:
    """The running job's limits (the defaults outside a job: a loader made by the host)."""
    try:
        return callables.current().limits
    except RuntimeError:
        return Limits()


def _dataset_length(dataset: Any, what: str) -> int:
    """`len(dataset)`, read once and bounded: torch turns it into C allocations (randperm(n)
    and its .tolist() for a shuffle or a split) before any of the program's code runs."""
    method = getattr(type(dataset), "__len__", None)
    if method is None:
        raise TypeError(f"{what}: the dataset has no len(): give its class a __len__ method")
    n = method(dataset)
    if type(n) is not int and type(n) is not bool:
        raise TypeError(f"{what}: len(dataset) must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{what}: len(dataset) must be >= 0, not {n:,}")
    limit = _job_limits().sequence_items
    if n > limit:
        raise LimitError(
            f"{what}: a dataset of {n:,} items is over the limit ({limit:,} items of one sequence)"
        )
    return int(n)


class _CheckedLength:
    """What torch's samplers and random_split are given for a dataset: only its length,
    read and checked on each read (a program's __len__ may answer differently each time)."""

    __slots__ = ("dataset", "what")

    def __init__(self, dataset: Any, what: str) -> None:
        self.dataset = dataset
        self.what = what

    def __len__(self) -> int:
        return _dataset_length(self.dataset, self.what)


def _tensor_elements(value: Any) -> int:
    if isinstance(value, torch.Tensor):
        return int(value.numel())
    if isinstance(value, np.ndarray):
        return int(value.size)
    return 0


def _collated_elements(samples: list[Any], limits: Limits) -> int:
    """The elements torch's default_collate will stack from these samples, field by field,
    each field checked against the per-tensor limit before it is stacked; their sum is
    returned. Read with the containers' own (C) methods: a prediction, which a program's
    subclass may make wrong, but the batch is checked again once made."""
    elem = samples[0]
    made = 0
    if isinstance(elem, (torch.Tensor, np.ndarray)):
        made = sum(_tensor_elements(sample) for sample in samples)
    elif isinstance(elem, (bool, int, float, complex, np.number, np.bool_)):
        made = len(samples)
    elif isinstance(elem, dict):
        if not all(isinstance(sample, dict) for sample in samples):
            return 0
        for key in dict.keys(elem):
            try:
                field = [dict.__getitem__(sample, key) for sample in samples]
            except KeyError:
                return made  # collate raises the KeyError itself
            made += _collated_elements(field, limits)
        return made
    elif isinstance(elem, (tuple, list)):
        width = len(elem)
        if not all(isinstance(s, (tuple, list)) and len(s) == width for s in samples):
            return 0  # collate refuses samples of different lengths itself
        for i in range(width):
            made += _collated_elements([_item(sample, i) for sample in samples], limits)
        return made
    if made > limits.tensor_elements:
        raise LimitError(
            f"DataLoader: collating {len(samples):,} samples would make a tensor of "
            f"{made:,} elements, over the limit ({limits.tensor_elements:,} per tensor): "
            "use a smaller batch_size"
        )
    return made


def _item(sample: tuple[Any, ...] | list[Any], i: int) -> Any:
    return (
        tuple.__getitem__(sample, i) if isinstance(sample, tuple) else list.__getitem__(sample, i)
    )


def _samples_elements(samples: Any) -> int:
    """The tensor elements the samples hold in all, through dicts, tuples and lists."""
    total = 0
    seen: set[int] = set()
    stack = [samples]
    while stack:
        value = stack.pop()
        if isinstance(value, (torch.Tensor, np.ndarray)):
            total += _tensor_elements(value)
        elif isinstance(value, (dict, tuple, list)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.extend(dict.values(value) if isinstance(value, dict) else value)
    return total


def _check_total(elements: int, limits: Limits, what: str) -> None:
    if elements > limits.total_elements:
        raise LimitError(
            f"DataLoader: {what} {elements:,} tensor elements in all, over the limit "
            f"({limits.total_elements:,} elements of all live tensors): use a smaller batch_size"
        )


class _CheckedCollate:
    """The loader's collate function, with the batch's size checked before it is made:
    torch's default_collate stacks each field in C, so the stacked sizes are predicted and
    bounded first; a program's own collate_fn runs through the interpreter's checked calls,
    and the samples it is handed are bounded in all."""

    __slots__ = ("collate", "default")

    def __init__(self, collate: Any, default: bool) -> None:
        self.collate = collate
        self.default = default

    def __call__(self, samples: Any) -> Any:
        limits = _job_limits()
        if self.default and isinstance(samples, list) and samples:
            _check_total(_collated_elements(samples, limits), limits, "collating would make")
        else:
            _check_total(_samples_elements(samples), limits, "the samples to collate hold")
        return self.collate(samples)


def check_batch(batch: Any) -> None:
    """A batch torch made (collate): every tensor, string and container in it, through
    dicts, tuples and lists, checked as the interpreter checks a call's result, and the
    tensors bounded in all."""
    try:
        interp = callables.current()
    except RuntimeError:
        interp = None
    limits = interp.limits if interp is not None else Limits()
    total = 0
    seen: set[int] = set()
    stack = [batch]
    while stack:
        value = stack.pop()
        if interp is not None:
            interp.check_size(value)
        if isinstance(value, (torch.Tensor, np.ndarray)):
            elements = _tensor_elements(value)
            if elements > limits.tensor_elements:
                raise LimitError(
                    f"a tensor of {elements:,} elements is over the limit "
                    f"({limits.tensor_elements:,} per tensor)"
                )
            total += elements
        elif isinstance(value, (dict, tuple, list)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.extend(dict.values(value) if isinstance(value, dict) else value)
    _check_total(total, limits, "a batch holds")


class _Batches:
    """What iterating gradtrace's DataLoader gives, however it is iterated (`for`,
    enumerate, zip, list, next(iter(...))): torch's batches, each checked as it comes."""

    __slots__ = ("_batches",)

    def __init__(self, batches: Iterator[Any]) -> None:
        self._batches = batches

    def __iter__(self) -> _Batches:
        return self

    def __next__(self) -> Any:
        batch = next(self._batches)
        check_batch(batch)
        return batch

    def __len__(self) -> int:
        return len(self._batches)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return "<DataLoader iterator>"


class _DataLoader(tud.DataLoader):  # type: ignore[type-arg]
    """DataLoader without worker processes: a sandboxed job may not start any. Its sizes
    are bounded before torch allocates for them (batch_size, the dataset's length for a
    shuffle, each batch before collate stacks it) and every batch is checked once made."""

    def __init__(self, dataset: Any, *args: Any, **kwargs: Any) -> None:
        # Bound as torch binds them, so a positional num_workers is seen too.
        try:
            bound = _DATALOADER_SIGNATURE.bind(self, dataset, *args, **kwargs).arguments
        except TypeError as exc:
            raise TypeError(f"DataLoader(): {exc}") from None
        for refused in ("num_workers", "worker_init_fn", "multiprocessing_context", "pin_memory"):
            if bound.get(refused):
                raise ForbiddenError(
                    f"DataLoader({refused}=...) is not available in gradtrace: "
                    "leave it out (batches are loaded in the program's own process)"
                )
        arguments = {name: value for name, value in bound.items() if name != "self"}
        limit = _job_limits().sequence_items
        batch_size = arguments.get("batch_size", 1)
        # torch's BatchSampler builds [sampler] * batch_size (drop_last) before a batch.
        if isinstance(batch_size, int) and batch_size > limit:
            raise LimitError(
                f"DataLoader(batch_size={batch_size:,}) is over the limit "
                f"({limit:,} items of one sequence)"
            )
        if _shuffles(arguments):
            # torch's RandomSampler draws randperm(len(dataset)).tolist() each epoch: it is
            # given the dataset's length only, checked on every read.
            _dataset_length(dataset, "DataLoader(shuffle=True)")
            sized = _CheckedLength(dataset, "DataLoader(shuffle=True)")
            sampler = (
                _JobDeviceRandomSampler
                if torch.empty(0).device.type != "cpu"
                else tud.RandomSampler
            )
            arguments["sampler"] = sampler(sized, generator=bound.get("generator"))
            arguments["shuffle"] = None
        automatic = arguments.get("batch_size", 1) is not None or (
            arguments.get("batch_sampler") is not None
        )
        collate = arguments.get("collate_fn")
        if collate is None:
            if automatic:
                arguments["collate_fn"] = _CheckedCollate(tud.default_collate, default=True)
        else:
            arguments["collate_fn"] = _CheckedCollate(collate, default=False)
        super().__init__(**arguments)

    def __iter__(self) -> _Batches:  # type: ignore[override]
        return _Batches(super().__iter__())


def _shuffles(arguments: dict[str, Any]) -> bool:
    """A shuffle torch would make with its own RandomSampler (which, on a job whose default
    device is a GPU, fails on its CPU generator: "Expected a 'cuda' device type for
    generator"; gradtrace's sampler draws on the job's device instead)."""
    return (
        bool(arguments.get("shuffle"))
        and arguments.get("sampler") is None
        and arguments.get("batch_sampler") is None
        and not isinstance(arguments["dataset"], tud.IterableDataset)
    )


class _JobDeviceRandomSampler(tud.RandomSampler):
    """torch's RandomSampler, whose per-epoch generator lives on the job's device: each
    epoch still draws its seed from the job's seeded default generator, as torch's does."""

    def __iter__(self) -> Iterator[int]:
        if self.generator is not None:
            return super().__iter__()
        seed = int(torch.empty((), dtype=torch.int64).random_().item())
        epoch = copy.copy(self)
        epoch.generator = torch.Generator(device=torch.empty(0).device)
        epoch.generator.manual_seed(seed)
        return tud.RandomSampler.__iter__(epoch)


def _random_split(
    dataset: Any, lengths: Any, generator: torch.Generator | None = torch.default_generator
) -> list[tud.Subset[Any]]:
    # torch's, with the dataset's length bounded first: torch draws randperm(len(dataset))
    # .tolist() in one C call. It is given the length only (checked on every read), and the
    # subsets it makes are made again over the dataset itself.
    what = "random_split()"
    limit = _job_limits().sequence_items
    count = len(lengths)
    if count > limit:
        raise LimitError(f"{what}: {count:,} lengths are over the limit ({limit:,} items)")
    lengths = list(lengths)
    if all(type(length) is int for length in lengths) and sum(lengths) > limit:
        raise LimitError(
            f"{what}: lengths of {sum(lengths):,} items in all are over the limit "
            f"({limit:,} items of one sequence)"
        )
    _dataset_length(dataset, what)
    sized = _CheckedLength(dataset, what)
    splits: list[tud.Subset[Any]] = tud.random_split(sized, lengths, generator=generator)  # type: ignore[arg-type]
    return [tud.Subset(dataset, split.indices) for split in splits]


_random_split.__name__ = "random_split"
_random_split.__qualname__ = "random_split"
_random_split.__module__ = "torch.utils.data.dataset"
_random_split.__doc__ = tud.random_split.__doc__  # the reference shows torch's first line


_DataLoader.__name__ = "DataLoader"
_DataLoader.__qualname__ = "DataLoader"
_DataLoader.__module__ = "torch.utils.data.dataloader"


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
            "random_split": _random_split,
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
    # torch.functional: the module torch's own einsum, norm, split... come from; a tutorial
    # imports it, and it offers only what `torch` itself admits.
    torch_functional = Namespace(
        "torch.functional",
        _members(torch.functional, [n for n in _TORCH_FUNCTIONS if n in torch.functional.__all__]),
        torch.functional,
    )
    members["functional"] = torch_functional
    torch_ns = Namespace("torch", members, torch)
    math_ns = Namespace("math", _members(math, _MATH), math)
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
        "torch.func": func,
        "torch.linalg": linalg,
        "torch.cuda": cuda,
        "torch.accelerator": accelerator,
        "math": math_ns,
        **python_modules(),
        **numpy_module(),
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
    "time": "a trace must come out the same on every run, so it cannot read the clock; "
    "drop the timing lines",
    "datetime": "a trace must come out the same on every run, so it cannot read the clock; "
    "drop the timestamps",
    "torch.utils.tensorboard": "TensorBoard is not available; print the numbers instead: the "
    "page plots the losses a training loop prints",
    "tqdm": "iterate over the range itself: `for i in range(n):`",
    "matplotlib": "print the numbers instead: the page plots the losses a training loop prints",
    "pandas": "put the data in tensors (torch.tensor) or lists",
    "sklearn": "make the data with torch (torch.randn, torch.linspace) and the model with torch.nn",
    "os": "programs cannot reach the server's files, processes or environment",
    "sys": "programs cannot reach the interpreter's state; print() writes to the page",
    "pathlib": "programs cannot read or write files; put the data in the program",
    "pickle": "programs cannot read or write files; put the data in the program",
}
