"""Execute examples/notebook.ipynb, as CI does: with nbclient in a real kernel when it is
installed, else its code cells in order in this process, as the plain script they are.

    python examples/run_notebook.py [NOTEBOOK] [--plain] [--output EXECUTED.ipynb]

Exits non-zero when a cell raises.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def code_cells(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = cell["source"]
            cells.append(source if isinstance(source, str) else "".join(source))
    return cells


def run_plain(path: Path) -> None:
    # Outside a notebook show() opens a browser tab: make that a no-op command here.
    os.environ.setdefault("BROWSER", "true")
    namespace: dict[str, object] = {"__name__": "__main__"}
    for index, source in enumerate(code_cells(path)):
        code = compile(source, f"{path.name}[cell {index}]", "exec")
        exec(code, namespace)  # the notebook is ours, as any script in the repository


def run_kernel(path: Path, output: Path | None) -> None:
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}
    )
    client.execute()
    if output is not None:
        nbformat.write(notebook, output)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", nargs="?", type=Path, default=HERE / "notebook.ipynb")
    parser.add_argument("--plain", action="store_true", help="skip nbclient even if installed")
    parser.add_argument("--output", type=Path, help="write the executed notebook here")
    args = parser.parse_args(argv)
    try:
        import nbclient  # noqa: F401
    except ImportError:
        args.plain = True
    if args.plain:
        run_plain(args.notebook)
        print(f"ran {args.notebook.name} as a script")
    else:
        run_kernel(args.notebook, args.output)
        print(f"ran {args.notebook.name} with nbclient")
    return 0


if __name__ == "__main__":
    sys.exit(main())
