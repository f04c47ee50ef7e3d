"""Optional compiled speed-ups: the engine's hot modules are compiled with Cython when a C compiler is
available. The pure-Python modules are the reference and stay in place; a build without a compiler (or
without Cython) simply installs them alone."""

from setuptools import setup

ACCELERATED = [
    "src/muggins/core/chance.py",
    "src/muggins/core/claims.py",
    "src/muggins/core/protocol.py",
    "src/muggins/dominoes/tiles.py",
    "src/muggins/dominoes/state.py",
    "src/muggins/cards/deck.py",
    "src/muggins/cards/muggins31/state.py",
    "src/muggins/cards/cribbage/pegging.py",
    "src/muggins/cards/cribbage/show.py",
    "src/muggins/cards/cribbage/game.py",
]

ext_modules = []
try:
    from Cython.Build import cythonize

    ext_modules = cythonize(ACCELERATED, compiler_directives={"language_level": 3, "binding": False},
                            include_path=["src"], quiet=True)
    for ext in ext_modules:
        ext.optional = True  # a failed compile leaves the pure-Python module in use
except Exception as exc:  # pragma: no cover - depends on the build machine
    print(f"muggins: building without compiled speed-ups ({exc})")

setup(ext_modules=ext_modules)
