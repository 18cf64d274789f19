"""A `Program` written out as straight-line Python.

`Program.run` executes the same recorded calls at every step; walking its
list of steps costs attribute lookups, argument dispatch and list
traffic per call. This module writes the walk out once instead, as the
source of one function per `(program, plan)`, and compiles it:

    def step(a0, a1, tensors, scope):
        x0 = [a0, C0._value, C1._value]
        a2, s0 = K0(*x0, **P0)                  # affine
        ...
        scope.close()
        g9 = ones_like(a9)                      # the seed
        if g9 is not None:                      # divide
            r = O8.vjp_arrays(g9, a9, x8, P8, N8, None)
            ...
        return [v0, v1, ...]                    # by constant

Slots become locals (`a<slot>`), the gradients of slots and constants
too (`g<slot>`, `v<constant>`). Everything else is the loop's own
semantics, statement for statement: the same kernels and VJPs with the
same arguments, called in the same order, gradients added up in the same
order (`add_gradients`), sparse gradients made dense before a VJP, a
tensor for every slot in `program.wrapped`, recorded draws and effects
called on their tensors. The gradients are therefore bit for bit those of
`tape.backward`. The source stays readable (`fn.source`) and shows in
tracebacks. It is made of this module's own text, generated names and
numbers only (operation names in comments are reduced to identifier
characters), so compiling it runs nothing that came from data or files.
"""
import itertools
import linecache
import re
import weakref

import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.primitive import _sequence_to_array
from kerasish.backend.tape import add_gradients
from kerasish.backend.tensor import Tensor
from kerasish.backend.capture import _Const, _resolve

_COUNTER = itertools.count()

# Source files of dropped programs, taken out of `linecache` at the next
# compile: a finalizer runs whenever the garbage collector does, and
# `linecache` itself reads an entry after checking for it (`checkcache`
# walks a copy of its keys), so removing entries there raised KeyError.
_DROPPED = []

# How a step's argument is given (`_Step.args` of `capture_program`): a
# slot's array, an array converted once, a variable's current value, or a
# list of references.
SLOT, FIXED, VARIABLE, LIST = range(4)


def compile_program(program, needs=None):
    """The step function of `program`: `fn(*input_arrays, tensors, scope)`
    (`scope.close()` is called where the backward walk begins).

    Args:
        program: A `Program`.
        needs: Its training plan (`Program._plan()`: per step the `needs`
            a tape would record, or `None`), or `None` for a forward only.

    Returns:
        A function filling `tensors` (the slots' tensors: inputs given,
        outputs and draw arguments written) that returns, with `needs`,
        the gradients by constant index (`None` where none arrived).
    """
    writer = _Writer(program, needs)
    return writer.compile()


def _forget_dropped():
    """Remove the `linecache` entries of programs dropped since the last
    compile."""
    while _DROPPED:
        linecache.cache.pop(_DROPPED.pop(), None)


class _Writer:
    def __init__(self, program, needs):
        self.program = program
        self.needs = needs
        self.lines = []
        self.namespace = {
            "ndarray": np.ndarray, "asarray": np.asarray,
            "ones_like": np.ones_like, "Tensor": Tensor,
            "IndexedSlices": IndexedSlices, "add_gradients": add_gradients,
            "resolve": _resolve, "sequence_to_array": _sequence_to_array}
        self.kept = set() if needs is None else \
            {i for i, n in enumerate(needs) if n is not None}

    def bind(self, name, value):
        self.namespace[name] = value
        return name

    def emit(self, text, depth=1):
        self.lines.append("    " * depth + text)

    def compile(self):
        program = self.program
        inputs = [f"a{i}" for i in range(program.trace.n_inputs)]
        self.emit(f"def step({', '.join(inputs + ['tensors', 'scope'])}):",
                  0)
        for i, step in enumerate(program.steps):
            self.forward(i, step)
        if self.needs is None:
            self.emit("return None")
        else:
            self.backward()
        source = "\n".join(self.lines) + "\n"
        filename = f"<kerasish program {next(_COUNTER)}>"
        exec(compile(source, filename, "exec"), self.namespace)
        fn = self.namespace["step"]
        fn.source = source
        # Tracebacks through the step show its lines, for as long as the
        # step lives.
        _forget_dropped()
        linecache.cache[filename] = (len(source), None,
                                     source.splitlines(True), filename)
        weakref.finalize(fn, _DROPPED.append, filename)
        return fn

    # -- forward ---------------------------------------------------------------
    def forward(self, i, step):
        self.emit(f"# {i}: {_name(step)}")
        if step.draw is not None:       # its own arguments, as recorded
            self.bind(f"D{i}", step.draw)
            self.bind(f"R{i}", step.refs)
            self.bind(f"P{i}", step.params)
            self.emit(f"r = D{i}(*[resolve(ref, tensors) for ref in R{i}], "
                      f"**P{i})")
            if step.out is not None:    # an effect has no result
                self.emit(f"a{step.out} = r._value")
                self.emit(f"tensors[{step.out}] = r")
            return
        args = [self.argument(i, j, kind, value)
                for j, (kind, value) in enumerate(step.args)]
        if _reads_rows(step):
            # A row gather reads only its rows of the variable.
            args[0] = args[0][:-len("._value")] + f"._rows_source({args[1]})"
        call = f"K{i}(*x{i}" if i in self.kept else f"K{i}({', '.join(args)}"
        if i in self.kept:
            self.emit(f"x{i} = [{', '.join(args)}]")
        self.bind(f"K{i}", step.kernel)
        if step.params:
            call += f", **{self.bind(f'P{i}', step.params)}"
        out = f"a{step.out}"
        self.emit(f"{out}, s{i} = {call})" if step.saves else
                  f"{out} = {call})")
        self.emit(f"if {out}.__class__ is not ndarray: "
                  f"{out} = asarray({out})")
        if step.out in self.program.wrapped:
            self.emit(f"tensors[{step.out}] = Tensor({out})")

    def argument(self, i, j, kind, value):
        if kind == SLOT:
            return f"a{value}"
        if kind == FIXED:
            return self.bind(f"F{i}_{j}", value)
        if kind == VARIABLE:
            return self.bind(f"C{self.program.const_index(value)}",
                             value) + "._value"
        return f"sequence_to_array([{self.items(i, j, value.items)}])"

    def items(self, i, j, refs):
        """A list's items as `Primitive.__call__` receives them (slots'
        arrays, constants as they are, nested lists)."""
        parts = []
        for n, ref in enumerate(refs):
            if ref.__class__ is int:
                parts.append(f"a{ref}")
            elif ref.__class__ is _Const:
                parts.append(self.bind(f"Q{i}_{j}_{n}", ref.value))
            else:
                kind = self.bind(f"S{i}_{j}_{n}", ref.kind)
                parts.append(f"{kind}([{self.items(i, j, ref.items)}])")
        return ", ".join(parts)

    # -- backward --------------------------------------------------------------
    def backward(self):
        program = self.program
        n_slots = program.n_slots
        self.emit("scope.close()")
        names = [f"g{s}" for s in range(n_slots)] + \
            [f"v{k}" for k in range(len(program.consts))]
        self.emit(" = ".join(names + ["None"]))
        target = program.trace._out_refs[-1]
        if target.__class__ is int:
            self.emit(f"g{target} = ones_like(a{target})")
        elif target.__class__ is _Const and \
                isinstance(target.value, Tensor):
            k = program.const_index(target.value)
            self.emit(f"v{k} = ones_like({self.bind(f'C{k}', target.value)}"
                      "._value)")
        for i in reversed(sorted(self.kept)):
            self.vjp(i, program.steps[i], self.needs[i])
        self.emit(f"return [{', '.join(names[n_slots:])}]")

    def vjp(self, i, step, needs):
        self.emit(f"# {i}: {_name(step)}")
        g = f"g{step.out}"
        self.emit(f"if {g} is not None:")
        self.emit(f"g = {g}", 2)
        self.emit(f"{g} = None", 2)
        self.emit("if isinstance(g, IndexedSlices): g = g.to_dense()", 2)
        self.bind(f"O{i}", step.op)
        self.bind(f"N{i}", needs)
        self.namespace.setdefault(f"P{i}", step.params)
        saved = f"s{i}" if step.saves else "None"
        self.emit(f"r = O{i}.vjp_arrays(g, a{step.out}, x{i}, P{i}, N{i}, "
                  f"{saved})", 2)
        for j, (dest, need) in enumerate(zip(step.dests, needs)):
            if not need:
                continue
            name = f"g{dest}" if dest < self.program.n_slots else \
                f"v{dest - self.program.n_slots}"
            self.emit(f"if r[{j}] is not None:", 2)
            self.emit(f"{name} = r[{j}] if {name} is None else "
                      f"add_gradients({name}, r[{j}])", 3)


def _name(step):
    """The operation's name for a comment, as identifier characters only:
    the source holds nothing but what this module writes."""
    name = getattr(step.op, "name", None) or \
        getattr(step.draw or step.kernel, "__name__", "call")
    return re.sub(r"\W", "_", str(name))


def _reads_rows(step):
    return getattr(step.op, "reads_rows", False) and \
        step.params.get("axis") == 0 and step.args[0][0] == VARIABLE
