"""matplotlib's line plots become the trace's series (language/plots.py): each line under
its label, with the numbers matplotlib itself holds for it when CPython runs the file."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import gradtrace
from gradtrace import Limits

PROGRAM = textwrap.dedent(
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import torch

    torch.manual_seed(0)
    w = torch.randn(4, requires_grad=True)
    losses, norms = [], []
    for step in range(12):
        loss = (w ** 2).sum() + w.sin().sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            norms.append(w.grad.norm())
            w.grad.zero_()
        losses.append(loss.item())
    plt.figure(figsize=(6, 3))
    plt.plot(losses, "b-", label="loss")
    plt.plot(range(12), norms, label="loss")
    fig, axes = plt.subplots(2, 1)
    axes[0].plot(np.array(losses) * 2)
    axes[1].semilogy(torch.tensor(norms), "o")
    plt.plot([1.0, float("nan"), 3.0])
    """
)

# The lines of every figure CPython + matplotlib drew, by figure and axes, in order.
REFERENCE = textwrap.dedent(
    """
    import json, math, runpy, sys
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runpy.run_path(sys.argv[1], run_name="__main__")
    lines = []
    for number in plt.get_fignums():
        for ax in plt.figure(number).axes:
            for line in ax.lines:
                ys = [float(v) for v in line.get_ydata()]
                lines.append([line.get_label(), [v if math.isfinite(v) else "nan" for v in ys]])
    print(json.dumps(lines))
    """
)


def _matplotlib_lines(tmp_path: Any, source: str = PROGRAM) -> list[tuple[str, list[Any]]]:
    """The lines CPython + matplotlib drew for `source`; what it printed is left out."""
    program = tmp_path / "plots.py"
    program.write_text(source)
    out = subprocess.run(
        [sys.executable, "-c", REFERENCE, str(program)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [(label, values) for label, values in json.loads(out.splitlines()[-1])]


def test_each_line_is_a_series_with_matplotlibs_numbers(tmp_path: Any) -> None:
    trace = gradtrace.run(PROGRAM)
    assert trace.ok, trace.error
    plotted = [s for s in trace.series if s.line is not None]
    reference = _matplotlib_lines(tmp_path)
    assert len(plotted) == len(reference) == 5
    for series, (_, values) in zip(plotted, reference):
        assert len(series.values) == len(values)
        for ours, theirs in zip(series.values, values):
            if theirs == "nan":
                assert ours == "nan"
            else:
                assert abs(float(ours) - theirs) <= 1e-6 * max(1.0, abs(theirs))
    # Labels: the program's, numbered apart where two lines share one; "line N" unlabelled.
    assert [s.label for s in plotted] == ["loss (2)", "loss (3)", "line 3", "line 4", "line 5"]
    assert [s.label for s in trace.series if s.line is None] == ["loss"]
    source_lines = PROGRAM.splitlines()
    for series in plotted:
        assert (
            "plot(" in source_lines[series.line - 1] or "semilogy(" in source_lines[series.line - 1]
        )


GRID = textwrap.dedent(
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import torch

    x = torch.linspace(-2, 2, 9)
    fig, axes = plt.subplots(2, 2, figsize=(8, 6), sharex=True)
    axes[0, 0].plot(x, x.sin(), label="sin")
    axes[0][1].plot(x, x.cos(), label="cos")
    for ax in axes[1]:
        ax.plot(x, x**2, label="square")
    for i, ax in enumerate(axes.flat):
        ax.set_title(f"panel {i}")
    print(axes.shape, axes.ndim, axes.size, len(axes), len(axes[:, 0]), len(axes[0, ::-1]))
    fig, row = plt.subplots(1, 3)
    left, middle, right = row
    right.plot(np.arange(4.0), label="right")
    row[-3].plot([1, 2], label="left")
    fig, column = plt.subplots(3, 1, squeeze=False)
    print(column.shape, column[2, 0] is column.flatten()[2], column.reshape(-1).shape)
    print(axes[-1, -1] is axes.flat[3], axes.ravel()[1] is axes[0, 1])
    column[np.int64(1), 0].plot([5, 4, 3], label="column")
    fig, wide = plt.subplots(np.int64(2), 3, gridspec_kw={"width_ratios": [3, 1, 1]})
    print(wide)
    print(repr(wide[0]), repr(wide[0, 0]))
    print([wide.flatten("F")[i] is wide[i % 2, i // 2] for i in range(6)])
    print(wide[1, 2] in wide, wide[0, 0] in wide[1], wide[: np.int64(1)].shape)
    try:
        if wide:
            pass
    except ValueError as error:
        print(error)
    try:
        axes[2, 0]
    except IndexError as error:
        print(error)
    try:
        axes[0, 0, 0]
    except IndexError as error:
        print(error)
    try:
        row[0.5]
    except IndexError as error:
        print(type(error).__name__)
    """
)


def test_a_grid_of_axes_indexes_as_matplotlibs_array(tmp_path: Any) -> None:
    """subplots(2, 2)'s axes are a 2-D array: the lines plotted on each cell, picked by
    every way programs index it, are matplotlib's; what the program prints is CPython's."""
    trace = gradtrace.run(GRID)
    assert trace.ok, trace.error
    reference = _matplotlib_lines(tmp_path, GRID)
    by_label = {label: values for label, values in reference}
    assert sorted(s.label for s in trace.series) == sorted(
        ["sin", "cos", "square", "square (2)", "right", "left", "column"]
    )
    assert len(reference) == len(trace.series)
    for series in trace.series:
        theirs = by_label[series.label.split(" (")[0]]
        assert [round(float(v), 6) for v in series.values] == [round(v, 6) for v in theirs]
    printed = subprocess.run(
        [sys.executable, str(tmp_path / "plots.py")], capture_output=True, text=True, check=True
    ).stdout
    assert trace.stdout == printed


def test_a_long_line_is_cut_with_a_note() -> None:
    trace = gradtrace.run(
        "import matplotlib.pyplot as plt\nimport torch\nplt.plot(torch.arange(5000.0))\n",
        limits=Limits(series_points=100),
    )
    assert trace.ok, trace.error
    (series,) = trace.series
    assert series.values == [float(v) for v in range(100)]
    assert "series 'line 1' cut at 100 points" in trace.truncation


def test_what_a_series_cannot_hold_warns_and_draws_nothing() -> None:
    trace = gradtrace.run(
        "import matplotlib.pyplot as plt\nimport torch\n"
        "plt.imshow(torch.rand(8, 8))\nplt.savefig('out.png')\nprint('done')\n"
    )
    assert trace.ok, trace.error
    assert trace.stdout == "done\n"
    messages = [w.message for w in trace.warnings]
    assert any("imshow draws nothing here" in m for m in messages), messages
    assert any("savefig draws nothing here" in m for m in messages), messages
    assert [w.line for w in trace.warnings] == [3, 4]


def test_plot_refuses_as_matplotlib_does() -> None:
    cases = {
        "plt.plot(torch.ones(3, requires_grad=True))": "RuntimeError",
        "plt.plot([1, 2], [1, 2, 3])": "ValueError",
        "plt.plot([{}])": "TypeError",
        # Narrower than matplotlib: what a line's options could hand it to call.
        "plt.plot([1, 2], transform=None)": "ForbiddenError",
        "plt.plot([1, 2], label=[1])": "TypeError",
        "plt.title(plt.figure)": "TypeError",
    }
    for line, error in cases.items():
        trace = gradtrace.run(f"import matplotlib.pyplot as plt\nimport torch\n{line}\n")
        assert not trace.ok and trace.error is not None, line
        assert trace.error.type == error, (line, trace.error)
        assert trace.error.line == 3


def test_what_scripts_write_around_their_plots() -> None:
    source = textwrap.dedent(
        """
        import matplotlib
        import matplotlib.pyplot
        import matplotlib.pyplot as plt
        plt.rcParams["figure.figsize"] = (8, 4)
        plt.rcParams.update({"font.size": 12, "axes.grid": True})
        matplotlib.rcParams["lines.linewidth"] = 2
        plt.style.use("ggplot")
        line, = matplotlib.pyplot.plot([3, 2, 1], label="down")
        line.set_color("r")
        print(line.get_label(), len(plt.plot([1, 2], [1, 2], [1, 2], [2, 1])))
        plt.plot([1, 2, 3], label="_hidden")
        plt.plot([True, False, True], label="x" * 500)
        """
    )
    trace = gradtrace.run(source)
    assert trace.ok, trace.error
    assert trace.stdout == "down 2\n"
    # matplotlib leaves "_..." labels out of its legend: an unlabelled line here.
    assert [s.label for s in trace.series] == ["down", "line 2", "line 3", "line 4", "x" * 100]
    # Every value a float, as matplotlib holds them (booleans too).
    assert trace.series[-1].values == [1.0, 0.0, 1.0]


def test_plotted_lines_and_points_are_bounded_for_the_job() -> None:
    many = gradtrace.run(
        "import matplotlib.pyplot as plt\nfor i in range(100):\n    plt.plot([1, 2])\n"
    )
    assert many.error is not None and many.error.type == "LimitError"
    assert "plotted more than 64 lines" in many.error.message
    points = gradtrace.run(
        "import matplotlib.pyplot as plt\nfor i in range(30):\n    plt.plot(list(range(50)))\n",
        limits=Limits(series_points=50),
    )
    assert points.error is not None and points.error.type == "LimitError"
    assert "plotted more than 500 points in all" in points.error.message
