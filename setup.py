"""Build the Cython extensions of gwe_fast; all metadata lives in pyproject.toml."""

import os
import re

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Optimisation is on by default; GWE_FAST_DEBUG=1 builds with assertions and no -O3.
# -g0 drops the debug information Python's own CFLAGS ask for (the code is the same), and
# -fno-gcse-after-reload a pass that takes over a quarter of gcc's time on the modules with
# Cython's long __init__ functions, for nothing measurable in the turn loops (issue 28).
DEBUG = os.environ.get("GWE_FAST_DEBUG") == "1"
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3", "-g0", "-fno-gcse-after-reload"]
# Modules that only build tables, once a scenario: no need of -O3.
COLD_ARGS = COMPILE_ARGS if DEBUG else ["-O1", "-g0"]
MACROS = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]

KERNELS = ["codes", "hexgrid", "search", "bitsearch", "board"]

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
        # the GWE core weighs attacks as the ladder's Python does: the same floating-point
        # operations, none contracted
        extra_compile_args=[*COMPILE_ARGS, "-ffp-contract=off"] if name.endswith("gwe.core")
        else COMPILE_ARGS,
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
        else COLD_ARGS if name == "tables" else COMPILE_ARGS,
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


# Cold code at -O1. Most of gcc's time went to functions that run once a call from Python or
# once a scenario: the Python-facing wrappers and bodies of `def` functions (argument parsing,
# object conversions), the type slots, the module's start-up, and the table builders (cdef
# functions named `*_tables`). The rules and searches they call stay at -O3, and so does
# anything they inline. The optimisation level changes no result: floating point is IEEE on
# x86-64 at any level, and contraction is off where it matters.
COLD_FUNCTION = re.compile(
    r"^(?:__pyx_pf_|__pyx_pw_|__pyx_pymod_exec_|__pyx_tp_|__pyx_getprop_|__pyx_setprop_"
    r"|__Pyx_InitCachedConstants$|__Pyx_CreateCodeObjects$|__Pyx_InitConstants$)"
    r"|^__pyx_f_\w*_tables$")
COLD_ATTRIBUTE = '__attribute__((optimize("O1"))) '


def mark_cold_functions(path: str) -> int:
    """Give each cold function's definition in the generated C file ``path`` the attribute
    that compiles it at -O1; returns how many were marked (none twice)."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    marked = 0
    for i, line in enumerate(lines):
        if not line.startswith("static ") or COLD_ATTRIBUTE in line:
            continue
        if not line.rstrip().endswith("{"):          # a definition, not a declaration
            continue
        name = re.search(r"(\w+)\(", line)
        if name and COLD_FUNCTION.search(name.group(1)):
            lines[i] = line.replace("static ", "static " + COLD_ATTRIBUTE, 1)
            marked += 1
    if marked:
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)
    return marked


class BuildExt(build_ext):
    """``build_ext`` on all cores by default, with the cold functions marked (above)."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext):
        # gcc's attribute (clang ignores it, with a warning); never for MSVC
        if not DEBUG and self.compiler.compiler_type == "unix":
            for source in ext.sources:
                if source.endswith(".c"):
                    mark_cold_functions(source)
        super().build_extension(ext)


# Cython's own helpers (memoryviews, function objects, ...) are compiled once, in a module of
# their own that the others import, rather than into each of the modules above (issue 28: the
# build spent most of its time compiling the same helpers again and again).
SHARED_UTILITY = "gwe_fast._core._cyutility"
extensions.append(Extension(
    SHARED_UTILITY,
    [f"src/{SHARED_UTILITY.replace('.', '/')}.c"],
    extra_compile_args=COMPILE_ARGS,
))

# Cython 3.3.1 leaves a type undeclared in a module that makes a Cython array from a pointer
# (<int32_t[:n]>p) while taking its helpers from the shared module, so the Guns of August's
# engine keeps its own copy.
OWN_UTILITY = {"gwe_fast._core.goa.engine"}


def _cythonize(exts, **options):
    return cythonize(exts, include_path=["src"], compiler_directives=KERNEL_DIRECTIVES,
                     nthreads=os.cpu_count() or 1, **options)


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=(
        _cythonize([e for e in extensions if e.name not in OWN_UTILITY],
                   shared_utility_qualified_name=SHARED_UTILITY)
        + _cythonize([e for e in extensions if e.name in OWN_UTILITY])
    ),
)
