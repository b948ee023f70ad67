# expect: NameError
# A class built while another's body is evaluated (from a function its body calls) has a
# namespace of its own: the outer body's names do not reach it, and it leaves the outer's
# as it was.
import torch


def make():
    class Inner:
        got = outer_only
    return Inner


class Outer:
    outer_only = 1
    inner = make()
