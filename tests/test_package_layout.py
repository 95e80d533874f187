"""The library (`swag`) and the applications (`swag_apps`) are apart: the library never imports the
applications, no module import graph has a cycle, and the library reads no file outside itself."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = ROOT / "python"
PACKAGES = ("swag", "swag_apps")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PY).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """The project modules ``path`` imports (at any depth of the file: lazy imports count)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if node.module:
                found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)
    known = _modules()
    return {m for m in found if m in known and m != name}


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in (PY / pkg).rglob("*.py")}


def _graph() -> dict[str, set[str]]:
    return {name: _imports(path) for name, path in _modules().items()}


def test_the_library_never_imports_the_applications() -> None:
    offenders = {m: sorted(i for i in deps if i.startswith("swag_apps"))
                 for m, deps in _graph().items() if m.split(".")[0] == "swag"}
    assert {m: d for m, d in offenders.items() if d} == {}


def test_no_import_cycle() -> None:
    # importing one's own parent package (its __init__ re-exports) is plumbing, not a dependency
    edges = {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in _graph().items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in sorted(edges.get(m, ())):
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [m, d] if d in stack else [m, d])
            elif d not in state:
                visit(d, stack + [m])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [])
    assert cycles == []


def test_the_graph_sees_imports() -> None:
    """The checks above would pass on an empty graph: make sure it holds the edges we know of."""
    graph = _graph()
    assert "swag_apps.pipeline" in graph["swag_apps.pipeline_spark"]
    assert "swag.spark" in graph["swag_apps.pipeline_spark"]  # a lazy import inside a function
    assert "swag.errors" in graph["swag.cli"]


def test_the_library_reads_nothing_outside_itself() -> None:
    """No ``Path(__file__).parents[N]`` in the library: an installed package has no repository around it."""
    for path in (PY / "swag").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert ".parents[" not in text, f"{path.relative_to(ROOT)} reaches outside the package"
