"""Build the Cython extensions of gwe_fast; all metadata lives in pyproject.toml."""

import hashlib
import json
import os
from glob import glob

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Optimisation is on by default; GWE_FAST_DEBUG=1 builds with assertions and no -O3.
DEBUG = os.environ.get("GWE_FAST_DEBUG") == "1"
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]
MACROS = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]

KERNELS = ["hexgrid", "search", "board"]

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

KERNEL_DIRECTIVES = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}

# The rules and policies modules are plain Python; they are also compiled by Cython as they
# stand: no declarations and none of the kernels' directives, so the same semantics (type
# annotations are not read as C types; functions stay introspectable). gwe_fast/compiled.py
# runs a module from its source whenever the source differs from the one compiled, which the
# manifest records. GWE_FAST_COMPILE_RULES=0 builds the kernels only. -O1: as fast here as
# -O2 and half the compile time.
COMPILE_RULES = os.environ.get("GWE_FAST_COMPILE_RULES", "1") != "0"
RULES = sorted(
    path for path in (glob("src/gwe_fast/games/*/*.py") + glob("src/gwe_fast/policies/*.py")
                      + glob("src/gwe_fast/policies/*/*.py")
                      + [f"src/gwe_fast/{name}.py"
                         for name in ("game", "state", "dice", "hexmap", "kernels")])
    if not path.endswith("__init__.py")
) if COMPILE_RULES else []
RULE_DIRECTIVES = {"language_level": "3", "annotation_typing": False, "binding": True}
MANIFEST = "_compiled.json"


def module_name(path):
    return path[len("src/"):-len(".py")].replace("/", ".")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# the sources as they are before Cython reads them (the manifest names these)
SOURCES = {module_name(path): digest(path) for path in RULES}

rules = [
    Extension(module_name(path), [path],
              extra_compile_args=["-O0", "-g"] if DEBUG else ["-O1", "-ffp-contract=off"])
    for path in RULES
]


class BuildExt(build_ext):
    """``build_ext`` on all cores by default, writing the manifest of compiled rules modules
    (``gwe_fast/compiled.py``) beside the package, in the build and, in place, in the
    source tree."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        super().run()
        text = json.dumps({"modules": SOURCES}, indent=1, sort_keys=True) + "\n"
        folders = {os.path.join(self.build_lib, "gwe_fast")}
        if self.inplace:
            folders.add(self.get_finalized_command("build_py").get_package_dir("gwe_fast"))
        for folder in folders:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, MANIFEST), "w", encoding="utf-8") as f:
                f.write(text)


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=(
        cythonize(extensions, include_path=["src"], compiler_directives=KERNEL_DIRECTIVES)
        + (cythonize(rules, compiler_directives=RULE_DIRECTIVES, quiet=True,
                     nthreads=os.cpu_count() or 1) if rules else [])
    ),
)
