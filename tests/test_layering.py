"""Imports point down the layers of the package (docs/architecture.md).

The import graph of `kerasish/` is read from the source with `ast` (nothing
is imported). Every module gets the rank of the longest prefix in `RANKS`.
The test fails on:

- an import of a module of a higher rank (an upward import);
- an import circle among module-level imports (a module-level import of
  `a.b.c` also runs `a/__init__` and `a/b/__init__`, so those count);
- an import inside a function without a `# lazy: <reason>` comment on the
  import's first line;
- `ray` imported outside `kerasish/distribute/ps/`;
- an entry of `layering_allowlist.txt` that no longer happens, so the
  list only shrinks and stays true.

`layering_allowlist.txt` holds today's exceptions, one `kind source target`
line each (`kind` is `up`, `circle` or `unreasoned`; the target of
`circle` is the import that closes a circle and is left out of the circle
check), with its reason after `#`. Run `python tests/test_layering.py` to
print the current violations in that format.
"""
import ast
import pathlib
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kerasish"
ALLOWLIST = pathlib.Path(__file__).with_name("layering_allowlist.txt")

# Longest prefix wins. A rank may import its own rank and below.
FOUNDATION, BACKEND, OPS, PARTS, ENGINE, TRAINING, LOOPS, HOOKS, \
    APPLICATIONS, PUBLIC = range(10)
RANKS = {
    "kerasish.tree": FOUNDATION,
    "kerasish.version": FOUNDATION,
    # Tensor, tape, primitives; backend/common: the symbolic core.
    "kerasish.backend": BACKEND,
    "kerasish.ops": OPS,
    # What a Layer is built from: serialization, initializers, ...
    "kerasish.saving.object_registration": PARTS,
    "kerasish.saving.serialization_lib": PARTS,
    "kerasish.saving.errors": PARTS,
    "kerasish.saving.get_utils": PARTS,
    "kerasish.saving.lambda_code": PARTS,
    "kerasish.saving.legacy_config": PARTS,
    "kerasish.saving.safe_mode": PARTS,
    "kerasish.saving.sharing": PARTS,
    "kerasish.activations": PARTS,
    "kerasish.initializers": PARTS,
    "kerasish.regularizers": PARTS,
    "kerasish.constraints": PARTS,
    "kerasish.dtype_policies": PARTS,
    "kerasish.engine.dtype_policy": PARTS,
    # Layer, Functional, Sequential, Model and what they are made of.
    "kerasish.engine": ENGINE,
    "kerasish.layers": ENGINE,
    "kerasish.losses": ENGINE,
    "kerasish.metrics": ENGINE,
    "kerasish.optimizers": ENGINE,
    "kerasish.quantizers": ENGINE,
    "kerasish.models": ENGINE,
    "kerasish.saving": ENGINE,
    "kerasish.mixed_precision": ENGINE,
    "kerasish.distribution": ENGINE,
    # compile, train_step / test_step / predict_step.
    "kerasish.engine.trainer": TRAINING,
    "kerasish.engine.compile_utils": TRAINING,
    "kerasish.engine.compile_nested": TRAINING,
    "kerasish.engine.legacy_training": TRAINING,
    "kerasish.engine.step_capture": TRAINING,
    # Data adapters, epoch iterator, the step runner; the runtimes beside.
    "kerasish.engine.data_adapters": LOOPS,
    "kerasish.engine.epoch_iterator": LOOPS,
    "kerasish.engine.fit_loop": LOOPS,
    "kerasish.train.step_runner": LOOPS,
    "kerasish.train.layer_probe": LOOPS,
    "kerasish.train.global_step": LOOPS,
    "kerasish.callbacks.training_state": LOOPS,
    "kerasish.utils.py_dataset": LOOPS,
    "kerasish.data": LOOPS,
    "kerasish.distribute": LOOPS,
    # Keras callbacks and TF1 session-run hooks around the loops.
    "kerasish.callbacks": HOOKS,
    "kerasish.train": HOOKS,
    "kerasish.utils": HOOKS,
    "kerasish.visualization": HOOKS,
    # Built on the whole training stack.
    "kerasish.estimator": APPLICATIONS,
    "kerasish.feature_column": APPLICATIONS,
    "kerasish.applications": APPLICATIONS,
    "kerasish.distillation": APPLICATIONS,
    "kerasish.wrappers": APPLICATIONS,
    "kerasish.datasets": APPLICATIONS,
    "kerasish.preprocessing": APPLICATIONS,
    "kerasish.legacy": APPLICATIONS,
    "kerasish.utils.feature_space": APPLICATIONS,
    # Namespaces gathering names from many ranks: only re-exports.
    "kerasish": PUBLIC,
    "kerasish.__main__": PUBLIC,
    "kerasish.cli": PUBLIC,
    "kerasish.config": PUBLIC,
    "kerasish.random": PUBLIC,
}
# Package `__init__`s that are public namespaces spanning several ranks;
# implementation modules import the modules they re-export instead.
NAMESPACES = {"kerasish.utils", "kerasish.layers"}
RAY_HOME = "kerasish.distribute.ps"


def module_name(path):
    """`kerasish/a/b.py` -> `kerasish.a.b`; a package's `__init__` -> it."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules():
    """Every module of the package: name -> path."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _targets(source, node, known):
    """The modules one import statement names."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = source.split(".")
        if not known[source].name == "__init__.py":
            package = package[:-1]
        package = package[:len(package) - node.level + 1]
        base = ".".join(package + ([base] if base else []))
    names = [f"{base}.{alias.name}" for alias in node.names]
    return [name if name in known else base for name in names]


class Import:
    """One import of one module: where, what, and whether in a function."""

    def __init__(self, source, target, line, lazy, reason):
        self.source, self.target, self.line = source, target, line
        self.lazy, self.reason = lazy, reason

    def __repr__(self):
        return f"{self.source}:{self.line} -> {self.target}"


def imports(known=None):
    """All imports in the package, in file order."""
    known = known or modules()
    found = []
    for name, path in known.items():
        lines = path.read_text().splitlines()
        statements = []
        stack = [(ast.parse("\n".join(lines)), False)]
        while stack:
            node, lazy = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    statements.append((child, lazy))
                inner = isinstance(child, (ast.FunctionDef, ast.Lambda,
                                           ast.AsyncFunctionDef))
                stack.append((child, lazy or inner))
        covered = {line for node, _ in statements
                   for line in range(node.lineno, node.end_lineno + 1)}
        for node, lazy in statements:
            reason = _reason(lines, node, covered)
            found += [Import(name, target, node.lineno, lazy, reason)
                      for target in _targets(name, node, known)]
    return sorted(found, key=lambda i: (i.source, i.line))


def _reason(lines, node, covered):
    """The `# lazy:` reason on the import's lines, or on the comment line
    just above the run of imports it belongs to."""
    own = lines[node.lineno - 1:node.end_lineno]
    for line in own:
        if "# lazy:" in line:
            return line.partition("# lazy:")[2].strip()
    above = node.lineno - 1
    while above in covered:
        above -= 1
    text = lines[above - 1].strip() if above > 0 else ""
    return text.partition("# lazy:")[2].strip() if text.startswith(
        "# lazy:") else ""


def rank(module):
    """The rank of the longest prefix of `module` in `RANKS`."""
    if module in NAMESPACES:
        return PUBLIC
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in RANKS:
            return RANKS[prefix]
    raise AssertionError(f"{module} has no rank in RANKS")


def violations(found=None, known=None):
    """`(kind, source, target)` -> the imports breaking a rule."""
    known = known or modules()
    found = imports(known) if found is None else found
    broken = defaultdict(list)
    for imp in found:
        if imp.target.split(".")[0] == "ray" and not (
                imp.source + ".").startswith(RAY_HOME + "."):
            broken["ray", imp.source, "ray"].append(imp)
        if imp.lazy and not imp.reason:
            broken["unreasoned", imp.source, imp.target].append(imp)
        if imp.target in known and rank(imp.target) > rank(
                imp.source):
            broken["up", imp.source, imp.target].append(imp)
    return broken


def _runs(source, target, known):
    """`target` and the package `__init__`s importing it also runs."""
    parts = target.split(".")
    ran = [target]
    for end in range(1, len(parts)):
        package = ".".join(parts[:end])
        if not (source + ".").startswith(package + "."):
            ran.append(package)
    return [name for name in ran if name in known]


def circles(found, known, cut=()):
    """The module-level import circles (strongly connected, size > 1)."""
    graph = defaultdict(set)
    for imp in found:
        if not imp.lazy and (imp.source, imp.target) not in cut:
            graph[imp.source].update(_runs(imp.source, imp.target, known))
    return _strongly_connected(known, graph)


def _strongly_connected(nodes, graph):
    """Tarjan's algorithm, iterative; components of two or more."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def read_allowlist():
    """`(kind, source, target)` -> reason, from `layering_allowlist.txt`."""
    entries = {}
    for line in ALLOWLIST.read_text().splitlines():
        entry, _, reason = line.partition("#")
        if entry.strip():
            kind, source, target = entry.split()
            entries[kind, source, target] = reason.strip()
    return entries


def _report(entries):
    return "\n".join(f"{kind} {source} {target}  # "
                     for kind, source, target in sorted(entries))


_KNOWN = modules()
_FOUND = imports(_KNOWN)
_ALLOWED = read_allowlist()


def test_every_module_has_a_rank():
    for name in _KNOWN:
        rank(name)


def test_no_import_breaks_a_rule_outside_the_allowlist():
    broken = violations(_FOUND, _KNOWN)
    new = {key: broken[key] for key in broken
           if key not in _ALLOWED and key[0] != "circle"}
    assert not new, (
        "Imports against docs/architecture.md's layers (import from the "
        "rank below, or add `# lazy: <reason>` to an import in a function):"
        "\n" + "\n".join(f"{kind}: {imps}" for (kind, _, _), imps
                         in sorted(new.items())))


def test_no_module_level_import_circle():
    cut = {(s, t) for kind, s, t in _ALLOWED if kind == "circle"}
    found = circles(_FOUND, _KNOWN, cut)
    assert not found, "Module-level import circles:\n" + "\n".join(
        " <-> ".join(component) for component in found)


def test_allowlist_entries_still_happen_and_say_why():
    broken = violations(_FOUND, _KNOWN)
    module_level = {(i.source, i.target) for i in _FOUND if not i.lazy}
    stale = [key for key in _ALLOWED
             if (key[1:] not in module_level if key[0] == "circle"
                 else key not in broken)]
    assert not stale, ("Allow-listed imports that no longer happen; remove "
                       "them from layering_allowlist.txt:\n"
                       + _report(stale))
    assert all(_ALLOWED.values()), "Each allow-list entry needs a reason."


def test_the_graph_reader_sees_relative_and_lazy_imports(tmp_path):
    source = ("from . import a\n\ndef f():\n    import b  # lazy: one\n"
              "    # lazy: two\n    import c\n    import d\n    import e\n")
    tree = ast.parse(source)
    relative, function = tree.body[0], tree.body[1].body[0]
    known = {"pkg.m": pathlib.Path("m.py"), "pkg.a": pathlib.Path("a.py")}
    assert _targets("pkg.m", relative, known) == ["pkg.a"]
    assert _targets("pkg.m", function, known) == ["b"]
    lines = source.splitlines()
    covered = {1, 4, 6, 7, 8}
    assert [_reason(lines, node, covered) for node in tree.body[1].body] \
        == ["one", "two", "two", "two"]
    assert _runs("pkg.m", "x.y.z", {"x", "x.y", "x.y.z"}) == [
        "x.y.z", "x", "x.y"]


def test_the_rules_catch_what_they_name():
    known = {name: None for name in (
        "kerasish.backend.tensor", "kerasish.engine.layer",
        "kerasish.ops.core", "kerasish.distribute.ps.worker")}
    found = [
        Import("kerasish.backend.tensor", "kerasish.engine.layer", 1, False,
               ""),
        Import("kerasish.engine.layer", "kerasish.ops.core", 2, True, ""),
        Import("kerasish.engine.layer", "ray", 3, True, "optional"),
        Import("kerasish.distribute.ps.worker", "ray", 4, True, "optional"),
        Import("kerasish.ops.core", "kerasish.ops.core", 5, True, "why")]
    assert sorted(violations(found, known)) == [
        ("ray", "kerasish.engine.layer", "ray"),
        ("unreasoned", "kerasish.engine.layer", "kerasish.ops.core"),
        ("up", "kerasish.backend.tensor", "kerasish.engine.layer")]


def test_a_circle_counts_module_level_imports_and_package_inits():
    known = {"p", "p.a", "p.b", "q", "q.c"}
    both_ways = [Import("p.a", "p.b", 1, False, ""),
                 Import("p.b", "p.a", 1, False, "")]
    assert circles(both_ways, known) == [["p.a", "p.b"]]
    assert circles(both_ways[:1] + [Import("p.b", "p.a", 1, True, "x")],
                   known) == []
    # importing q.c runs q/__init__, which imports p.a back
    through_init = [Import("p.a", "q.c", 1, False, ""),
                    Import("q", "p.a", 1, False, "")]
    assert circles(through_init, known) == [["p.a", "q"]]
    assert circles(through_init, known, cut={("q", "p.a")}) == []


if __name__ == "__main__":
    broken = violations(_FOUND, _KNOWN)
    cut = {(s, t) for kind, s, t in _ALLOWED if kind == "circle"}
    for component in circles(_FOUND, _KNOWN, cut):
        print("circle:", len(component), component[:6], file=sys.stderr)
    print(_report(key for key in broken if key not in _ALLOWED))
