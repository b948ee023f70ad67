"""The evaluator: turns a checked `ast` tree into closures and runs them.

Each AST node is compiled once into a Python closure `f(scope) -> value`; running the
program is calling closures. Nothing here calls eval/exec/compile: every name is looked
up in our scopes and tables, every attribute passes `attribute_allowed`, and every op
that could allocate is bounded first (sizes.py). Tensors that ops produce are handed to
the recorder, which builds the trace.

The parts live in modules cut by concern: statements.py, raising.py (raise and try),
definitions.py, access.py, arithmetic.py, expressions.py, calls.py (call expressions),
call_path.py (the one call path), method_calls.py, formatting.py; runtime.py holds what
they share.
"""

from __future__ import annotations

import ast
import time
from typing import TYPE_CHECKING, Any

from gradtrace.language import (
    access,
    arithmetic,
    arrays,
    call_path,
    callables,
    calls,
    class_values,
    definitions,
    expressions,
    formatting,
    method_calls,
    raising,
    statements,
)
from gradtrace.language.builtins import make_builtins
from gradtrace.language.errors import LimitError
from gradtrace.language.job_objects import JobObjects
from gradtrace.language.limits import Limits
from gradtrace.language.memory import MemoryBound
from gradtrace.language.runtime import (
    _MODULE_CONTEXT,
    Scope,
)

if TYPE_CHECKING:
    from gradtrace.language.recording import Recording


class Interpreter:
    def __init__(self, source: str, limits: Limits, recorder: Recording, device: str) -> None:
        self.source = source
        self.lines = source.splitlines()
        self.limits = limits
        arrays.set_element_limit(limits.tensor_elements)  # numpy's arrays, sized like tensors
        self.rec = recorder
        self.device = device
        self.steps = 0
        self.ticks = 0
        self.depth = 0
        self.repeated = 0
        # The job's clocks start here: `time.perf_counter()` and `time.process_time()`
        # count from these (pymodules.py), not from the worker's start or other jobs' work.
        self.started_ns = time.monotonic_ns()
        self.cpu_started_ns = time.process_time_ns()
        self.deadline = self.started_ns / 1e9 + limits.wall_time_s
        self.memory = MemoryBound(limits.memory_mb)
        self.int_bound = 1 << limits.int_bits
        self.builtin_table = make_builtins(self)
        # What a program holds of each builtin, made when a name in the program first asks
        # for it (at compile time): wrapping all ~70 for every job cost ~5 % of a small one.
        self.builtins: dict[str, Any] = {}
        # The program's checked value of each class it handed to Python's or torch's code.
        self.class_values: dict[int, Any] = {}
        # The call being evaluated: where a Checked called from inside torch or a builtin
        # (a hook, a map) is recorded.
        self.here: ast.AST | None = None
        # The program runs as the main module: `if __name__ == "__main__":` runs its body.
        self.globals = Scope({"__name__": "__main__"}, None)
        self.handling: list[BaseException] = []
        # Why `:=` may not bind in what is being compiled (a comprehension, a class body),
        # if it may not (expressions.py).
        self.walrus_refusal: str | None = None
        # The names class bodies read from themselves (class_names.py), and the namespace
        # of the class being built, while its attributes are evaluated.
        self.class_reads: set[ast.Name] = set()
        self.class_namespace: dict[str, Any] | None = None
        # Names the program unbound (`del`, the end of `except ... as e`): the scope each
        # was last removed from and why, for the hint of a NameError that reads it there.
        self.unbound: dict[str, tuple[Scope, str]] = {}
        # The program's functions and classes, emptied when the job ends.
        self.made = JobObjects()
        self.made_class = self.made.made_class

    def run(self, tree: ast.Module) -> None:
        body = self.compile_block(tree.body, _MODULE_CONTEXT)
        callables.enter(self)
        try:
            body(self.globals)
        finally:
            callables.leave(self)

    def close(self) -> None:
        """Drop what ties the program's objects into cycles (scopes, builtins, functions,
        classes), once it ended."""
        self.globals.vars.clear()
        self.made.cut(Scope({}, None))
        self.builtins.clear()
        self.class_values.clear()
        self.builtin_table.clear()
        self.handling.clear()
        self.unbound.clear()
        self.class_reads.clear()

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.limits.steps:
            raise LimitError(f"the program ran more than {self.limits.steps:,} steps")
        if time.monotonic() > self.deadline:
            raise LimitError(f"the program ran longer than {self.limits.wall_time_s:g} s")
        # Called every 256 steps: the resident size is read every 1,024.
        self.ticks += 1
        if not self.ticks & 3:
            self.memory.check()
            self.made.prune()

    def segment(self, node: ast.AST) -> str:
        """The source text of `node`, on one line and shortened, for labels."""
        line = getattr(node, "lineno", None)
        end = getattr(node, "end_lineno", None)
        if line is None or end is None:
            return ""
        col, end_col = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
        if line == end:
            text = self.lines[line - 1][col:end_col]
        else:
            parts = [self.lines[line - 1][col:]]
            parts.extend(self.lines[line : end - 1])
            parts.append(self.lines[end - 1][:end_col])
            text = " ".join(p.strip() for p in parts)
        return str(text) if len(text) <= 48 else str(text)[:45] + "..."

    # statements.py
    compile_block = statements.compile_block
    compile_stmt = statements.compile_stmt
    stmt_Expr = statements.stmt_Expr
    stmt_Pass = statements.stmt_Pass
    stmt_Break = statements.stmt_Break
    stmt_Continue = statements.stmt_Continue
    stmt_Return = statements.stmt_Return
    stmt_Assign = statements.stmt_Assign
    stmt_AnnAssign = statements.stmt_AnnAssign
    stmt_AugAssign = statements.stmt_AugAssign
    stmt_If = statements.stmt_If
    truth = statements.truth
    stmt_While = statements.stmt_While
    stmt_For = statements.stmt_For
    iterate = statements.iterate
    _checked_batches = statements._checked_batches
    _tensor_rows = statements._tensor_rows
    stmt_With = statements.stmt_With
    stmt_Delete = statements.stmt_Delete
    stmt_Global = statements.stmt_Global
    stmt_Nonlocal = statements.stmt_Nonlocal
    stmt_Assert = statements.stmt_Assert
    # raising.py
    stmt_Raise = raising.stmt_Raise
    stmt_Try = raising.stmt_Try

    # definitions.py
    stmt_FunctionDef = definitions.stmt_FunctionDef
    apply_decorator = definitions.apply_decorator
    compile_function = definitions.compile_function
    call_user = definitions.call_user
    stmt_ClassDef = definitions.stmt_ClassDef
    stmt_Import = definitions.stmt_Import
    stmt_ImportFrom = definitions.stmt_ImportFrom
    find_module = definitions.find_module

    # access.py
    compile_target = access.compile_target
    compile_unbind = access.compile_unbind
    set_attr = access.set_attr
    del_attr = access.del_attr
    set_item = access.set_item
    expr_Attribute = access.expr_Attribute
    get_attr = access.get_attr
    read_attr = access.read_attr
    missing_member = access.missing_member
    super_attr = access.super_attr
    expr_Subscript = access.expr_Subscript
    expr_Slice = access.expr_Slice

    # arithmetic.py
    expr_BinOp = arithmetic.expr_BinOp
    binary = arithmetic.binary
    binary_pow = arithmetic.binary_pow
    _int_op = arithmetic._int_op
    _check_repeat = arithmetic._check_repeat
    check_size = arithmetic.check_size
    check_sizes = arithmetic.check_sizes
    check_printable = arithmetic.check_printable
    expr_UnaryOp = arithmetic.expr_UnaryOp
    expr_BoolOp = arithmetic.expr_BoolOp
    expr_Compare = arithmetic.expr_Compare

    # expressions.py
    compile_expr = expressions.compile_expr
    expr_Constant = expressions.expr_Constant
    expr_Yield = expressions.expr_Yield
    builtin_value = expressions.builtin_value
    expr_Name = expressions.expr_Name
    load_builtin = expressions.load_builtin
    expr_IfExp = expressions.expr_IfExp
    expr_NamedExpr = expressions.expr_NamedExpr
    expr_Lambda = expressions.expr_Lambda
    expr_List = expressions.expr_List
    expr_Tuple = expressions.expr_Tuple
    expr_Set = expressions.expr_Set
    compile_items = expressions.compile_items
    expr_Dict = expressions.expr_Dict
    expr_JoinedStr = expressions.expr_JoinedStr
    expr_FormattedValue = expressions.expr_FormattedValue
    expr_Starred = expressions.expr_Starred
    _compile_comprehension = expressions._compile_comprehension
    expr_ListComp = expressions.expr_ListComp
    expr_GeneratorExp = expressions.expr_GeneratorExp
    expr_SetComp = expressions.expr_SetComp
    _sequence_comprehension = expressions._sequence_comprehension
    expr_DictComp = expressions.expr_DictComp

    # calls.py
    expr_Call = calls.expr_Call
    compile_arguments = calls.compile_arguments
    compile_super = calls.compile_super

    # call_path.py
    invoke = call_path.invoke
    after_call = call_path.after_call

    # class_values.py
    class_value = class_values.class_value
    as_program_holds = class_values.as_program_holds
    classes_checked = class_values.classes_checked
    class_checked = class_values.checked

    # method_calls.py
    call_method = method_calls.call_method
    check_base_init = method_calls.check_base_init
    call_module = method_calls.call_module
    call_tensor_method = method_calls.call_tensor_method

    # formatting.py
    format_string = formatting.format_string
    builtin_print = formatting.builtin_print
    expr_YieldFrom = expr_Yield
