"""Optional compiled speed-ups: the engine's hot modules are compiled with Cython when a C compiler is
available. The pure-Python modules are the reference and stay in place; a build without a compiler (or
without Cython) simply installs them alone."""

import ast
import os
import shutil
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: Both steps of the build use every core: Cython's translation (one process a module) and the C compiler.
JOBS = max(1, os.cpu_count() or 1)


class ParallelBuildExt(build_ext):
    """``build_ext`` that compiles the extensions side by side unless ``--parallel``/``-j`` says otherwise,
    and does not compile again a module whose in-place build is newer than its sources: an editable install
    builds in a new temporary folder each time, so adding the test extras to an installed checkout would
    otherwise compile every module a second time."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

    def build_extension(self, ext: Any) -> None:
        try:
            inplace, target = self._get_inplace_equivalent(self.get_finalized_command("build_py"), ext)
        except AttributeError:  # an older setuptools: no in-place twin to reuse
            return super().build_extension(ext)
        sources = [Path(s) for s in [*ext.sources, *(ext.depends or [])]]
        built = Path(inplace)
        if (not self.force and not self.inplace and built.exists() and sources
                and all(s.exists() and s.stat().st_mtime <= built.stat().st_mtime for s in sources)):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, target)
            return None
        return super().build_extension(ext)


def _accelerated(name: str = "ACCELERATED", suffix: str = ".py") -> list[str]:
    """The compiled modules: the lists kept in src/muggins/_accel.py (read without importing the package):
    ``ACCELERATED`` compiled from their .py sources, ``NATIVE`` from .pyx (native code with no pure twin)."""
    tree = ast.parse(Path(__file__).with_name("src").joinpath("muggins", "_accel.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ["src/" + mod.replace(".", "/") + suffix for mod in ast.literal_eval(node.value)]
    raise RuntimeError(f"src/muggins/_accel.py defines no {name} list")


ACCELERATED = _accelerated() + _accelerated("NATIVE", ".pyx")

ext_modules = []
try:
    from Cython.Build import cythonize

    ext_modules = cythonize(ACCELERATED, compiler_directives={"language_level": 3, "binding": False},
                            include_path=["src"], quiet=True, nthreads=JOBS)
    for ext in ext_modules:
        ext.optional = True  # a failed compile leaves the pure-Python module (or engine) in use
except Exception as exc:  # pragma: no cover - depends on the build machine
    print(f"muggins: building without compiled speed-ups ({exc})")

setup(ext_modules=ext_modules, cmdclass={"build_ext": ParallelBuildExt})
