"""Optional compiled speed-ups: the engine's hot modules are compiled with Cython when a C compiler is
available. The pure-Python modules are the reference and stay in place; a build without a compiler (or
without Cython) simply installs them alone."""

import ast
from pathlib import Path

from setuptools import setup


def _accelerated() -> list[str]:
    """The compiled modules: the one list kept in src/muggins/_accel.py (read without importing the package)."""
    tree = ast.parse(Path(__file__).with_name("src").joinpath("muggins", "_accel.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ACCELERATED" for t in node.targets):
            return ["src/" + name.replace(".", "/") + ".py" for name in ast.literal_eval(node.value)]
    raise RuntimeError("src/muggins/_accel.py defines no ACCELERATED list")


def _native() -> list[str]:
    """The native engines (Cython .pyx with no Python twin): the NATIVE list of src/muggins/_accel.py."""
    tree = ast.parse(Path(__file__).with_name("src").joinpath("muggins", "_accel.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NATIVE" for t in node.targets):
            return ["src/" + name.replace(".", "/") + ".pyx" for name in ast.literal_eval(node.value)]
    raise RuntimeError("src/muggins/_accel.py defines no NATIVE list")


ACCELERATED = _accelerated()
NATIVE = _native()

ext_modules = []
try:
    from Cython.Build import cythonize

    ext_modules = cythonize(ACCELERATED + NATIVE, compiler_directives={"language_level": 3, "binding": False},
                            include_path=["src"], quiet=True)
    for ext in ext_modules:
        ext.optional = True  # a failed compile leaves the pure-Python module (or engine) in use
except Exception as exc:  # pragma: no cover - depends on the build machine
    print(f"muggins: building without compiled speed-ups ({exc})")

setup(ext_modules=ext_modules)
