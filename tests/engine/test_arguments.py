"""argparse for programs (language/arguments.py): what a script's parser gives, compared
with CPython's argparse running the same file with no command line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import gradtrace

PROGRAM = textwrap.dedent(
    """
    import argparse

    parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
    parser.add_argument("--batch-size", type=int, default=64, metavar="N",
                        help="input batch size for training (default: 64)")
    parser.add_argument("--lr", type=float, default=1.0, metavar="LR")
    parser.add_argument("--gamma", type=float, default="0.7")
    parser.add_argument("--no-accel", action="store_true", default=False)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--mode", choices=["a", "b"], default="a")
    parser.add_argument("--_private", default=3)
    group = parser.add_argument_group("model")
    group.add_argument("--hidden", type=int, nargs="+", default=[8, 8])
    exclusive = parser.add_mutually_exclusive_group()
    exclusive.add_argument("--adam", action="store_true")
    exclusive.add_argument("--sgd", action="store_true")
    args = parser.parse_args()
    print(args)
    print(args.batch_size, args.lr, args.gamma, args.no_accel, "lr" in args, args._private)
    args.lr = 0.5
    args.extra = [1, 2]
    print(args.lr, getattr(args, "hidden"), hasattr(args, "nope"), args)
    line = ["--lr=0.1", "--dry-run", "--hidden", "4", "5", "--mode", "b", "--batch", "16"]
    print(parser.parse_args(line))
    print(parser.parse_args(args=[]).mode, parser.get_default("lr"))
    print(argparse.Namespace(x=1, y="two"))

    def positive(text):
        value = int(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} is not positive")
        return value

    cli = argparse.ArgumentParser(formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    cli.add_argument("n", type=positive)
    cli.add_argument("rest", nargs="*")
    cli.add_argument("-v", "--verbose", action="count", default=0)
    cli.add_argument("-b", type=int)
    cli.add_argument("--flag", action=argparse.BooleanOptionalAction, default=True)
    print(cli.parse_args(["3", "a", "b", "-vv", "--no-flag", "-b64"]))
    print(cli.parse_known_args(["4", "--other", "-v"]))
    for line in (["-5"], [], ["x"], ["3", "--verbose=2"], ["3", "-b", "q"]):
        try:
            cli.parse_args(line)
            print("parsed", line)
        except:
            print("refused", line)
    try:
        parser.parse_args(["--adam", "--sgd"])
    except:
        print("refused both")
    parser.set_defaults(lr=9.0, extra=1)
    print(parser.parse_args())
    settings = vars(parser.parse_args())
    print(settings, sorted(settings.items())[:2])
    """
)


def test_a_scripts_parser_gives_what_cpythons_argparse_gives(tmp_path: Any) -> None:
    program = tmp_path / "arguments.py"
    program.write_text(PROGRAM)
    # As `python arguments.py` runs it: no command line (argparse's errors go to stderr).
    expected = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, check=True
    ).stdout
    trace = gradtrace.run(PROGRAM)
    assert trace.ok, trace.error
    assert trace.stdout == expected


def test_what_argparse_would_print_and_exit_on_is_an_error_with_its_message() -> None:
    cases = {
        "p.add_argument('n'); p.parse_args()": "the following arguments are required: n",
        "p.add_argument('--k', type=int); p.parse_args(['--k', 'x'])": (
            "argument --k: invalid int value: 'x'"
        ),
        "p.parse_args(['--nope'])": "unrecognized arguments: --nope",
        "p.add_argument('--m', choices=[1, 2], type=int); p.parse_args(['--m', '3'])": (
            "argument --m: invalid choice: 3 (choose from 1, 2)"
        ),
        "p.add_argument('--lr'); p.add_argument('--lrs'); p.parse_args(['--l', '1'])": (
            "ambiguous option: --l could match --lr, --lrs"
        ),
    }
    for line, message in cases.items():
        trace = gradtrace.run(f"import argparse\np = argparse.ArgumentParser()\n{line}\n")
        assert trace.error is not None, line
        assert (trace.error.type, trace.error.message) == ("ArgumentError", message)
        assert trace.error.line == 3


def test_help_and_version_on_a_given_command_line_are_refused() -> None:
    for words in ("['-h']", "['--version']"):
        trace = gradtrace.run(
            "import argparse\np = argparse.ArgumentParser()\n"
            f"p.add_argument('--version', action='version', version='1')\np.parse_args({words})\n"
        )
        assert trace.error is not None and trace.error.type == "ForbiddenError", words
