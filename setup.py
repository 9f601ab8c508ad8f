"""Build the Cython extensions of gwe_fast; all metadata lives in pyproject.toml."""

import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Optimisation is on by default; GWE_FAST_DEBUG=1 builds with assertions and no -O3.
DEBUG = os.environ.get("GWE_FAST_DEBUG") == "1"
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]
MACROS = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]

KERNELS = ["codes", "hexgrid", "search", "board"]

extensions = [
    Extension(
        f"gwe_fast._core.{name}",
        [f"src/gwe_fast/_core/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=MACROS,
        extra_compile_args=COMPILE_ARGS,
    )
    for name in KERNELS
]
# The policy kernels must give the same bits as the numpy code of their pure twin: no fused
# multiply-add (floating-point contraction) in them.
extensions.append(Extension(
    "gwe_fast._core.policy",
    ["src/gwe_fast/_core/policy.pyx"],
    include_dirs=[numpy.get_include()],
    define_macros=MACROS,
    extra_compile_args=[*COMPILE_ARGS, "-ffp-contract=off"],
))

# The compiled turn loop draws its random numbers with numpy's own C library (npyrandom), so
# that it reads the same numbers from a Generator as Generator.integers does.
NPY_RANDOM_LIB = os.path.join(os.path.dirname(numpy.__file__), "random", "lib")
extensions.append(Extension(
    "gwe_fast._core.play",
    ["src/gwe_fast/_core/play.pyx"],
    include_dirs=[numpy.get_include()],
    library_dirs=[NPY_RANDOM_LIB],
    libraries=["npyrandom"],
    define_macros=MACROS,
    extra_compile_args=COMPILE_ARGS,
))

# The hex games' compiled cores (_core/hexdice: their dice; _core/kb: The Kaiser's Battle;
# _core/gwe: The Great War in the East), reading dice and policy draws with numpy's own C
# library as the Python engine does.
HEX_CORE = ["gwe_fast._core.hexdice", "gwe_fast._core.kb.core", "gwe_fast._core.gwe.core"]
extensions += [
    Extension(
        name,
        [f"src/{name.replace('.', '/')}.pyx"],
        include_dirs=[numpy.get_include()],
        library_dirs=[NPY_RANDOM_LIB],
        libraries=["npyrandom"],
        define_macros=MACROS,
        extra_compile_args=COMPILE_ARGS,
    )
    for name in HEX_CORE
]

# The compiled core of The Guns of August (_core/goa): dice, tables, rules, the turn loop,
# the ladder policies answering inside it, the lookahead playing on copies of it. The ladder's
# greedy policies weigh options in floating point exactly as their Python twins do: no fused
# multiply-add there either.
GOA_CORE = ["dice", "tables", "rules", "engine", "ladder", "lookahead"]
extensions += [
    Extension(
        f"gwe_fast._core.goa.{name}",
        [f"src/gwe_fast/_core/goa/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=MACROS,
        extra_compile_args=[*COMPILE_ARGS, "-ffp-contract=off"] if name in ("ladder", "lookahead")
        else COMPILE_ARGS,
    )
    for name in GOA_CORE
]

KERNEL_DIRECTIVES = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}


class BuildExt(build_ext):
    """``build_ext`` on all cores by default."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=(
        cythonize(extensions, include_path=["src"], compiler_directives=KERNEL_DIRECTIVES,
                  nthreads=os.cpu_count() or 1)
    ),
)
