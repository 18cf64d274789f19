"""Doctests that compare printed floats with a tolerance.

A docstring shows what a reader should expect (`array([2.], dtype=float32)`
for `log10(100)`), but numpy's float32 transcendental functions differ by
an ulp or two between CPUs and builds (`2.0000002`). `NumberChecker`
accepts such output: the text around the numbers must match exactly, each
integer must match exactly, and each float must match within float32
tolerance. Everything else is doctest's own comparison.
"""
import doctest
import math
import re

# float32 has ~7 significant digits; a few ulps of a transcendental result
# stay well inside these, a wrong example does not.
RTOL = 1e-5
ATOL = 1e-6

# A float as Python or numpy prints it: "2.", "0.25", ".5", "1e-07",
# "-3.5e+02"; not the digits of a name ("float32") or of "1.2.3".
_FLOAT = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))"
                    r"(?:[eE][-+]?\d+)?(?![\w.])")


def _skeleton(text):
    """The text with every float replaced by `#` and no whitespace (numpy
    pads array columns to the widest number printed)."""
    return "".join(_FLOAT.sub("#", text).split())


class NumberChecker(doctest.OutputChecker):
    """doctest's checker, which also accepts floats within RTOL/ATOL."""

    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        expected, actual = _FLOAT.findall(want), _FLOAT.findall(got)
        if not expected or len(expected) != len(actual):
            return False
        if _skeleton(want) != _skeleton(got):
            return False
        return all(math.isclose(float(a), float(b), rel_tol=RTOL,
                                abs_tol=ATOL)
                   for a, b in zip(expected, actual))


def testmod(module, extraglobs=None, optionflags=0):
    """`doctest.testmod(module, ...)` with `NumberChecker`; returns
    `doctest.TestResults` and prints failures as doctest does."""
    runner = doctest.DocTestRunner(checker=NumberChecker(),
                                   optionflags=optionflags)
    for test in doctest.DocTestFinder().find(module, module.__name__,
                                             extraglobs=extraglobs):
        runner.run(test)
    return runner.summarize(verbose=False)
