"""The allowlists of attributes: which attributes of which values a program may read, set
or delete, and what `super()` and a class may reach. A (type, name) pair not admitted
here is refused wherever it is asked for (`obj.name`, getattr, attrgetter, super())."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

import numpy as np
import torch
import torch.utils.data as tud
from torch import nn, optim

from gradtrace.identity import identity
from gradtrace.language import (
    argument_specs,
    arguments,
    distributions,
    forward_ad,
    plots,
    progress,
    random_instances,
    signatures,
)
from gradtrace.language.arrays import ARRAY_ATTRIBUTES
from gradtrace.language.callables import Checked
from gradtrace.language.classes import (
    MODULE_INTERNALS,
    class_visible,
    is_program_object,
    user_class_member,
)
from gradtrace.language.dataloaders import DataLoader
from gradtrace.language.generators import ProgramGenerator
from gradtrace.language.pymodules import PLAIN_ATTRIBUTES as PY_ATTRIBUTES
from gradtrace.language.pymodules import TYPING_FORMS, namedtuple_field
from gradtrace.language.values import ModuleTable, Namespace

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
    dict: frozenset(
        "clear copy fromkeys get items keys pop popitem setdefault update values".split()
    ),
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
    DataLoader: frozenset({"dataset", "batch_size", "drop_last"}),
    progress.tqdm: progress.ATTRIBUTES,
    plots.Figure: plots.FIGURE_ATTRIBUTES,
    plots.Axes: plots.AXES_ATTRIBUTES,
    plots.AxesArray: plots.AXES_ARRAY_ATTRIBUTES,
    plots.Line: plots.LINE_ATTRIBUTES,
    plots.Settings: plots.SETTINGS_ATTRIBUTES,
    plots.Colormaps: plots.COLORMAP_ATTRIBUTES,
    arguments.ArgumentParser: arguments.PARSER_ATTRIBUTES,
    arguments._Group: arguments.GROUP_ATTRIBUTES,
    signatures.Signature: signatures.SIGNATURE_ATTRIBUTES,
    signatures.Parameter: signatures.PARAMETER_ATTRIBUTES,
    random_instances.Random: random_instances.ATTRIBUTES,
    signatures._ParameterKind: signatures.KIND_ATTRIBUTES,
}

_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})


def _private_allowed(obj: object, name: str) -> bool:
    """`obj._name` and the few dunders a program reads: only on its own objects and classes
    (and the saved tensors of an autograd Node, which lessons show)."""
    if name.startswith("__") and name.endswith("__"):
        if name == "__class__":  # what type(obj) answers, for the same objects
            return class_visible(obj)
        if name in ("__name__", "__qualname__"):
            return isinstance(obj, type)
        # A special method the program wrote itself (d2l's Vocab.__getitem__ calls
        # `self.__getitem__(token)` for each token of a list): its own code.
        if isinstance(obj, type):
            return "gradtrace_members" in obj.__dict__ and user_class_member(obj, name)
        return is_program_object(obj) and user_class_member(type(obj), name)
    if isinstance(obj, type):
        return user_class_member(obj, name)
    if type(obj) is argument_specs.Namespace:  # an argument the program named `_x`
        return name in obj.__dict__
    if namedtuple_field(obj, name):  # _asdict, _replace, _fields
        return True
    if isinstance(obj, torch.autograd.graph.Node):
        return name.startswith(("_saved_", "_raw_saved_"))
    if not is_program_object(obj):
        return False
    if isinstance(obj, nn.Module) and name in MODULE_INTERNALS:
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
    return not hasattr(type(obj), name) and name not in MODULE_INTERNALS


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
            name in obj.__dict__ and name not in MODULE_INTERNALS
        )
    if isinstance(obj, torch.autograd.function.BackwardCFunction):
        return not name.startswith("_") and name in obj.__dict__
    if type(obj) is argument_specs.Namespace:
        return name in obj.__dict__
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
    if kind is argument_specs.Namespace:  # the parsed arguments (one missing: AttributeError)
        return True
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
    if kind in distributions.ATTRIBUTES:
        return name in distributions.ATTRIBUTES[kind]
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
    if type(obj) in distributions.ATTRIBUTES:
        return distributions.ATTRIBUTES[type(obj)]
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
    "profiler": "a trace must come out the same on every run, so it cannot read the clock: "
    "drop the profiler",
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
    allowed = _PLAIN_ATTRIBUTES.get(cls) or PY_ATTRIBUTES.get(cls)
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


def _class_attribute_allowed(cls: type, name: str) -> bool:
    if issubclass(cls, torch.autograd.Function) and name == "apply":
        return True
    if cls in _CLASS_CONSTANTS:  # inspect.Parameter.KEYWORD_ONLY, Parameter.empty
        return name in _CLASS_CONSTANTS[cls]
    return user_class_member(cls, name)


# Constants a program reads on a stand-in's class itself.
_CLASS_CONSTANTS: dict[type, frozenset[str]] = {
    signatures.Parameter: signatures.PARAMETER_CONSTANTS,
    signatures.Signature: frozenset({"empty"}),
}


def width_method(name: str) -> bool:
    return name in _WIDTH_METHODS
