"""matplotlib for programs: `plt.plot(losses)` puts the curve in the trace's Training
panel, beside the series read from what the program prints.

A trace carries numbers, not pictures, so the line plots a training script draws become
series (each plotted line one, under its `label=`), and the rest of a figure (titles,
axes' labels, legends, grids, sizes, `show()`) has nothing to change here and is
accepted as it is written. Drawings a series cannot hold (an image, a histogram, a
scatter) and `savefig` (a job writes no files) draw nothing and say so once, as a
warning. Nothing of matplotlib itself is imported: no backend, no fonts, no files.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from gradtrace.language import callables
from gradtrace.language.errors import ForbiddenError

# Keyword arguments that only change how a line looks.
_STYLE = frozenset(
    """
color c linestyle ls linewidth lw marker markersize ms markerfacecolor mfc markeredgecolor
mec markeredgewidth mew alpha zorder drawstyle ds dashes antialiased aa scalex scaley
fillstyle solid_capstyle solid_joinstyle dash_capstyle dash_joinstyle markevery
""".split()
)
_REAL = (int, float, bool)
# A series' label, as the legend shows it.
_LABEL_CHARS = 100


class Line:
    """What plot() returns for each line (`line, = plt.plot(...)`): its look may be set,
    which changes nothing here."""

    def __init__(self, label: str | None) -> None:
        self._label = label

    def get_label(self) -> str:
        return self._label or ""

    def _setting(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)

    set_label = set_color = set_linestyle = set_linewidth = set_alpha = set_marker = _setting
    set_markersize = set_visible = set_zorder = _setting


class Figure:
    """A figure: the axes made on it; nothing is drawn."""

    def __init__(self) -> None:
        self.axes: list[Axes] = []

    def add_subplot(self, *args: Any, **kwargs: Any) -> Axes:
        _plain(args, kwargs)
        ax = Axes()
        self.axes.append(ax)
        return ax

    def savefig(self, *args: Any, **kwargs: Any) -> None:
        _nothing_drawn("savefig", "a job writes no files")

    def suptitle(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)

    def tight_layout(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)

    def set_size_inches(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)

    def show(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)


class Axes:
    """One plot's axes: its lines go to the trace's series."""

    def __repr__(self) -> str:
        return "<Axes: >"  # matplotlib's, for axes with no title or labels

    def plot(self, *args: Any, **kwargs: Any) -> list[Line]:
        return _plot(args, kwargs)

    def semilogy(self, *args: Any, **kwargs: Any) -> list[Line]:
        return _plot(args, kwargs)

    def _setting(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)

    set_xlabel = set_ylabel = set_title = legend = grid = _setting
    set_xscale = set_yscale = set_xlim = set_ylim = set_xticks = set_yticks = _setting
    axis = _setting


_MOST_AXES = 16


class AxesArray:
    """subplots()' axes when there are several: matplotlib gives a numpy array of Axes,
    and programs use it as one (`axes[0, 1]`, `axes[1][0]`, `axes[:, 0]`, `axes.flat`,
    `axes.flatten()`, a `for` over its rows, `ax1, ax2 = axes`); this is that array, with
    no numpy in between (a program's index never reaches numpy's C)."""

    def __init__(self, cells: tuple[Axes, ...], shape: tuple[int, ...]) -> None:
        self._cells = cells  # in row-major order
        self.shape = shape
        self.ndim = len(shape)
        self.size = len(cells)

    def __len__(self) -> int:
        return self.shape[0]

    def __iter__(self) -> Any:
        return iter([self[i] for i in range(self.shape[0])])

    def __contains__(self, item: Any) -> bool:
        # numpy's `in` is `(array == item).any()`, and an Axes equals only itself.
        return any(cell is item for cell in self._cells)

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use "
                "a.any() or a.all()"
            )
        return True

    def __eq__(self, other: object) -> bool:
        raise ForbiddenError(
            "an array of axes is compared cell by cell in numpy: compare its cells "
            "(`axes[i, j] is ax`) here"
        )

    __ne__ = __eq__
    __hash__ = None  # type: ignore[assignment]  # numpy's arrays are unhashable

    def __repr__(self) -> str:
        return "array(" + self._text(", ", ",\n       ") + ", dtype=object)"

    def __str__(self) -> str:
        return self._text(" ", "\n ")

    def _text(self, between: str, between_rows: str) -> str:
        """The cells as numpy writes an array of them: `[[<Axes: > <Axes: >] ...]`."""
        if self.ndim == 1:
            return "[" + between.join(repr(cell) for cell in self._cells) + "]"
        rows = (self[i]._text(between, between_rows) for i in range(self.shape[0]))
        return "[" + between_rows.join(rows) + "]"

    def __getitem__(self, index: Any) -> Any:
        parts = index if type(index) is tuple else (index,)
        if len(parts) > self.ndim:
            raise IndexError(
                f"too many indices for array: array is {self.ndim}-dimensional, but "
                f"{len(parts)} were indexed"
            )
        parts = parts + (slice(None),) * (self.ndim - len(parts))
        picks = [
            _picks(part, axis, size) for axis, (part, size) in enumerate(zip(parts, self.shape))
        ]
        kept = tuple(len(rows) for rows, whole in picks if whole)
        strides = (self.shape[1], 1) if self.ndim == 2 else (1,)
        cells: list[int] = [0]
        for (rows, _), stride in zip(picks, strides):
            cells = [base + row * stride for base in cells for row in rows]
        chosen = tuple(self._cells[i] for i in cells)
        return chosen[0] if not kept else AxesArray(chosen, kept)

    @property
    def flat(self) -> AxesArray:
        return AxesArray(self._cells, (self.size,))

    def flatten(self, order: Any = "C") -> AxesArray:
        """The cells in one row: row by row, or column by column with order="F"."""
        if order not in ("C", "F", "A", "K") or type(order) is not str:
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        if order == "F" and self.ndim == 2:
            rows, columns = self.shape
            cells = tuple(self._cells[r * columns + c] for c in range(columns) for r in range(rows))
            return AxesArray(cells, (self.size,))
        return self.flat

    ravel = flatten

    def reshape(self, *shape: Any) -> AxesArray:
        if len(shape) == 1 and type(shape[0]) is tuple:
            shape = shape[0]
        if not 1 <= len(shape) <= 2 or any(type(n) is not int for n in shape):
            raise ValueError("reshape() takes one or two whole numbers here")
        known = math.prod(n for n in shape if n != -1)
        sizes = tuple(self.size // known if n == -1 and known else n for n in shape)
        if math.prod(sizes) != self.size or any(n < 1 for n in sizes):
            raise ValueError(f"cannot reshape array of size {self.size} into shape {shape}")
        return AxesArray(self._cells, sizes)


def _picks(part: Any, axis: int, size: int) -> tuple[list[int], bool]:
    """The rows of one axis an index part picks, and whether the axis stays (a slice)."""
    if isinstance(part, np.integer):
        part = int(part)
    if type(part) is int:
        if not -size <= part < size:
            raise IndexError(f"index {part} is out of bounds for axis {axis} with size {size}")
        return [part % size], False
    if type(part) is slice:
        bounds = [
            int(b) if isinstance(b, np.integer) else b for b in (part.start, part.stop, part.step)
        ]
        for bound in bounds:
            if bound is not None and type(bound) is not int:
                raise IndexError("an index of axes is a whole number or a slice of them")
        return list(range(size)[slice(*bounds)]), True
    raise IndexError(
        "only integers, slices (`:`) are valid indices of an array of axes, not "
        f"{type(part).__name__}"
    )


_COLORMAPS = """
viridis plasma inferno magma cividis Greys Purples Blues Greens Oranges Reds YlOrBr
YlOrRd OrRd PuRd RdPu BuPu GnBu PuBu YlGnBu PuBuGn BuGn YlGn binary gray bone pink
spring summer autumn winter cool hot afmhot copper PiYG PRGn BrBG PuOr RdGy RdBu RdYlBu
RdYlGn Spectral coolwarm bwr seismic twilight hsv Pastel1 Pastel2 Paired Accent Dark2
Set1 Set2 Set3 tab10 tab20 tab20b tab20c ocean terrain jet rainbow turbo nipy_spectral
gist_ncar cubehelix brg
""".split()


class Colormaps:
    """plt.cm: each colormap by its name (`cmap=plt.cm.Spectral`), which is what a
    drawing here is given: there is no colour to map."""

    def __getattr__(self, name: str) -> str:
        if name in _COLORMAPS or (name.endswith("_r") and name[:-2] in _COLORMAPS):
            return name
        raise AttributeError(f"module 'matplotlib.cm' has no attribute {name!r}")


COLORMAP_ATTRIBUTES = frozenset([*_COLORMAPS, *(f"{name}_r" for name in _COLORMAPS)])


class Settings:
    """plt.rcParams and plt.style: a script's defaults for its figures (`plt.rcParams[
    "figure.figsize"] = (8, 4)`, `plt.style.use("ggplot")`), taken and kept nowhere: each
    job's figures are the same, and a setting read back is not one there is."""

    def __setitem__(self, key: Any, value: Any) -> None:
        _plain((key, value), {})

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(f"{key!r}: settings are taken here, not read back")

    def update(self, *args: Any, **kwargs: Any) -> None:
        for arg in args:
            if type(arg) is not dict or len(arg) > 64:
                raise TypeError("rcParams.update() takes a dict of settings")
            _plain(tuple(arg.keys()), {})
            _plain(tuple(arg.values()), {})
        _plain((), kwargs)

    def use(self, *args: Any, **kwargs: Any) -> None:
        _plain(args, kwargs)


SETTINGS_ATTRIBUTES = frozenset({"update", "use"})


def _plain(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """A setting's arguments: text, numbers (numpy's and one-element tensors too) and
    short lists or tuples of them (a figure size, a colour), accepted and not read further."""
    for value in (*args, *kwargs.values()):
        _check_plain(value, 2)


def _check_plain(value: Any, depth: int) -> None:
    if value is None or type(value) in (str, int, float, bool):
        return
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return  # xlim(xx.min(), xx.max()): numpy's numbers
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        return
    if type(value) in (tuple, list) and depth > 0 and len(value) <= 16:
        for item in value:
            _check_plain(item, depth - 1)
        return
    raise TypeError(
        f"a plot setting takes text, numbers or a few of them, not {type(value).__name__}"
    )


def _nothing_drawn(what: str, why: str) -> None:
    warnings.warn(f"matplotlib: {what} draws nothing here ({why})", UserWarning, stacklevel=3)


def _plot(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Line]:
    """plot([x], y, [fmt], [x2], y2, [fmt2], ..., label=...): each y a series."""
    label = kwargs.get("label")
    if label is not None:
        if type(label) not in (str, int, float, bool):
            raise TypeError("plot(label=...) takes text (or a number)")
        # matplotlib leaves "" and "_..." out of legends: an unlabelled line here.
        label = str(label)[:_LABEL_CHARS] if str(label)[:1] not in ("", "_") else None
    for name, value in kwargs.items():
        if name != "label" and name not in _STYLE:
            raise ForbiddenError(
                f"plot({name}=...) is not supported here: a line's label and its style are"
            )
        _check_plain(value, 1)
    lines: list[Line] = []
    i = 0
    while i < len(args):
        if type(args[i]) is str:
            raise ValueError("plot(): a format string must follow the values it styles")
        if i + 1 < len(args) and type(args[i + 1]) is not str:
            x, y = args[i], args[i + 1]
            i += 2
        else:
            x, y = None, args[i]
            i += 1
        if i < len(args) and type(args[i]) is str:
            i += 1  # its format ("r-", "o--"): how the line looks
        limit = callables.current().limits.series_points
        values, length = _numbers(y, limit)
        if x is not None:
            _, x_length = _numbers(x, 0)
            if x_length != length:
                raise ValueError(
                    f"x and y must have same first dimension, but have shapes ({x_length},) "
                    f"and ({length},)"
                )
        interp = callables.current()
        interp.rec.plotted(label, values, length, getattr(interp.here, "lineno", None))
        lines.append(Line(label))
    return lines


def _numbers(values: Any, limit: int) -> tuple[list[Any], int]:
    """The first `limit` numbers of a line's values, and how many it has: a list or tuple
    of real numbers, a 1-D tensor or numpy array. Past `limit`, nothing is read."""
    if isinstance(values, torch.Tensor):
        if values.requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        if not values.is_cpu:
            raise TypeError(
                f"can't convert {values.device} device type tensor to numpy. Use Tensor.cpu() "
                "to copy the tensor to host memory first."
            )
        if values.dim() > 1 or values.is_complex():
            raise ForbiddenError("plot takes one line at a time here: a 1-D tensor of reals")
        flat = values.reshape(-1)
        return [_finite(v) for v in flat[:limit].tolist()], flat.numel()
    if isinstance(values, np.ndarray):
        if values.ndim > 1 or values.dtype.kind not in "biuf":
            raise ForbiddenError("plot takes one line at a time here: a 1-D array of reals")
        row = values.reshape(-1)
        return [_finite(v) for v in row[:limit].tolist()], int(row.size)
    if type(values) in (list, tuple, range):
        out = []
        for item in values[:limit]:
            if type(item) in _REAL:
                out.append(_finite(item))
            elif isinstance(item, torch.Tensor) and item.numel() == 1 and not item.is_complex():
                if item.requires_grad:
                    raise RuntimeError(
                        "Can't call numpy() on Tensor that requires grad. Use "
                        "tensor.detach().numpy() instead."
                    )
                out.append(_finite(item.item()))
            elif isinstance(item, np.generic) and item.dtype.kind in "biuf":
                out.append(_finite(item.item()))
            else:
                raise TypeError(f"plot() takes numbers, not {type(item).__name__}")
        return out, len(values)
    if type(values) in _REAL:
        return [_finite(values)][:limit], 1
    raise TypeError(
        f"plot() takes a list, a tensor or an array of numbers, not {type(values).__name__}"
    )


def _finite(value: Any) -> float | str:
    """A plotted number as the series carries it: a float, as matplotlib makes every value
    (an int no float holds is its OverflowError); not-a-number and infinities as text."""
    number = float(value)
    if math.isfinite(number):
        return number
    return "nan" if math.isnan(number) else ("inf" if number > 0 else "-inf")


# -- pyplot's functions: the current figure's -----------------------------------------


def plot(*args: Any, **kwargs: Any) -> list[Line]:
    return _plot(args, kwargs)


def figure(*args: Any, **kwargs: Any) -> Figure:
    _plain(args, kwargs)
    return Figure()


def subplots(nrows: Any = 1, ncols: Any = 1, **kwargs: Any) -> tuple[Figure, Any]:
    """A figure and its axes, as matplotlib gives them: one Axes; for one row or one
    column, an array of them; for a grid, a 2-D array (always 2-D with squeeze=False)."""
    squeeze = kwargs.pop("squeeze", True)
    for layout in ("gridspec_kw", "subplot_kw"):  # sizes and ratios of the cells
        _layout(layout, kwargs.pop(layout, None))
    _plain((), kwargs)
    nrows, ncols = (int(n) if isinstance(n, np.integer) else n for n in (nrows, ncols))
    if type(nrows) is not int or type(ncols) is not int or nrows < 1 or ncols < 1:
        raise ValueError("subplots(nrows, ncols) takes positive whole numbers")
    if isinstance(squeeze, np.bool_):
        squeeze = bool(squeeze)
    if type(squeeze) is not bool:
        raise TypeError("subplots(squeeze=...) takes True or False")
    if nrows * ncols > _MOST_AXES:
        raise ForbiddenError(f"subplots: at most {_MOST_AXES} axes")
    fig = Figure()
    cells = tuple(fig.add_subplot() for _ in range(nrows * ncols))
    if not squeeze:
        return fig, AxesArray(cells, (nrows, ncols))
    if len(cells) == 1:
        return fig, cells[0]
    if nrows == 1 or ncols == 1:
        return fig, AxesArray(cells, (len(cells),))
    return fig, AxesArray(cells, (nrows, ncols))


def _layout(name: str, settings: Any) -> None:
    """gridspec_kw={"width_ratios": [3, 1]}: a dict of settings, taken and kept nowhere."""
    if settings is None:
        return
    if type(settings) is not dict or len(settings) > 16:
        raise TypeError(f"subplots({name}=...) takes a dict of a few settings")
    for key, value in settings.items():
        if type(key) is not str:
            raise TypeError(f"subplots({name}=...) takes settings named by text")
        _check_plain(value, 2)


def subplot(*args: Any, **kwargs: Any) -> Axes:
    _plain(args, kwargs)
    return Axes()


def gca() -> Axes:
    return Axes()


def close(fig: Any = None) -> None:
    """close(), close(fig), close("all"): there is nothing open to close."""
    if not isinstance(fig, Figure):
        _check_plain(fig, 0)


def savefig(*args: Any, **kwargs: Any) -> None:
    _nothing_drawn("savefig", "a job writes no files")


def _setting(*args: Any, **kwargs: Any) -> None:
    _plain(args, kwargs)


def _drawing(name: str) -> Callable[..., None]:
    """pyplot's `name` (imshow, hist, ...): draws nothing, and says so."""

    def drawing(*args: Any, **kwargs: Any) -> None:
        _nothing_drawn(name, "a trace shows line plots (plot) only")

    drawing.__name__ = drawing.__qualname__ = name
    drawing.__module__ = "matplotlib.pyplot"
    return drawing


def _axes_drawing(name: str) -> Callable[..., None]:
    """The same as a method of Axes."""

    def drawing(self: Axes, *args: Any, **kwargs: Any) -> None:
        _nothing_drawn(name, "a trace shows line plots (plot) only")

    drawing.__name__ = name
    drawing.__qualname__ = f"Axes.{name}"
    drawing.__module__ = "matplotlib.pyplot"
    return drawing


def use(backend: Any, *args: Any, **kwargs: Any) -> None:
    """matplotlib.use("Agg"): there is no backend to choose."""
    _plain((backend, *args), kwargs)


_SETTINGS = """
show xlabel ylabel title legend grid tight_layout xlim ylim xscale yscale suptitle
axis xticks yticks clf cla ion ioff pause
""".split()
_DRAWINGS = """
imshow matshow scatter hist bar barh text annotate arrow axhline axvline fill_between
contour contourf pcolormesh errorbar stem step pie boxplot violinplot colorbar
""".split()

MEMBERS: dict[str, Any] = {
    "plot": plot, "semilogy": plot, "figure": figure, "subplots": subplots,
    "subplot": subplot, "gca": gca, "savefig": savefig, "close": close, "cm": Colormaps(),
    "rcParams": Settings(), "style": Settings(),
    **dict.fromkeys(_SETTINGS, _setting), **{name: _drawing(name) for name in _DRAWINGS},
}  # fmt: skip
for _name in _DRAWINGS:
    setattr(Axes, _name, _axes_drawing(_name))
MATPLOTLIB: dict[str, Any] = {"use": use, "rcParams": MEMBERS["rcParams"]}

for _member in (
    Figure,
    Axes,
    AxesArray,
    Line,
    Colormaps,
    Settings,
    plot,
    figure,
    subplots,
    subplot,
    gca,
    close,
    savefig,
    _setting,
):
    _member.__module__ = "matplotlib.pyplot"
use.__module__ = "matplotlib"

#: What a program may read on a line, a figure and axes.
LINE_ATTRIBUTES = frozenset(
    """
get_label set_label set_color set_linestyle set_linewidth set_alpha set_marker
set_markersize set_visible set_zorder
""".split()
)
AXES_ARRAY_ATTRIBUTES = frozenset("shape ndim size flat flatten ravel reshape".split())
FIGURE_ATTRIBUTES = frozenset(
    "add_subplot savefig suptitle tight_layout set_size_inches show axes".split()
)
AXES_ATTRIBUTES = frozenset(
    """
plot semilogy set_xlabel set_ylabel set_title legend grid set_xscale set_yscale set_xlim
set_ylim set_xticks set_yticks axis
""".split()
    + _DRAWINGS
)
