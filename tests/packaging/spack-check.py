"""spack-check.py PACKAGE_PY CMAKELISTS — loads a Spack recipe where Spack
itself is not installed (it is not in Debian and this machine reaches no
other registry) and checks what Spack would read from it: the recipe
compiles, declares the variants +mpi, +postgres, +curl, and its
cmake_args() maps each variant onto an option the project's CMakeLists.txt
declares, for every combination, and every IOATLAS_WITH_* option has one.  The `spack.package` names the recipe uses
are provided here, recording the declarations; prints one line per finding
and exits 1 on any."""
import itertools
import re
import sys
import types

recipe, cmakelists = sys.argv[1], sys.argv[2]
declared = {"variant": {}, "depends_on": [], "conflicts": [], "version": []}


def record(kind):
    def call(*args, **kwargs):
        if kind == "variant":
            declared["variant"][args[0]] = kwargs
        else:
            declared[kind].append((args, kwargs))
    return call


class Spec:
    def __init__(self, on):
        self.on = on

    def satisfies(self, text):
        return all((name in self.on) == (sign == "+") for sign, name in re.findall(r"([+~])(\w+)", text))

    def __getitem__(self, name):
        return types.SimpleNamespace(mpicc="/spack/mpich/bin/mpicc")


class CMakePackage:
    run_tests = False

    def define(self, name, value):
        return (name, value)

    def define_from_variant(self, name, variant):
        if variant not in declared["variant"]:
            raise KeyError(f"define_from_variant names no variant '{variant}'")
        return (name, variant in self.spec.on)


api = types.ModuleType("spack.package")
api.CMakePackage = CMakePackage
for kind in declared:
    setattr(api, kind, record(kind))
api.__all__ = ["CMakePackage"] + list(declared)
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = api

failures = []
source = open(recipe).read()
code = compile(source, recipe, "exec")
namespace = {}
exec(code, namespace)
package = namespace.get("Ioatlas")
if package is None:
    failures.append("no class Ioatlas")
options = set(re.findall(r"option\((IOATLAS_\w+)", open(cmakelists).read()))
cache = set(re.findall(r"set\((IOATLAS_\w+) .*CACHE", open(cmakelists).read()))
for name in ("mpi", "postgres", "curl"):
    if name not in declared["variant"]:
        failures.append(f"no variant +{name}")
if not declared["version"]:
    failures.append("no version")
mapped = set()
for on in itertools.product([True, False], repeat=3):
    variants = {n for n, o in zip(("mpi", "postgres", "curl"), on) if o} | {"logdir"}
    instance = package.__new__(package)
    instance.spec = Spec(variants)
    for name, _ in instance.cmake_args():
        if name.startswith("IOATLAS_") and name not in options | cache:
            failures.append(f"cmake_args sets {name}, which CMakeLists.txt does not declare")
        mapped.add(name)
for option in sorted(o for o in options - mapped if o.startswith("IOATLAS_WITH_")):
    failures.append(f"CMakeLists.txt option {option} has no variant")
for failure in failures:
    print(failure)
print(f"variants: {' '.join(sorted(declared['variant']))}; CMake: {' '.join(sorted(mapped))}")
sys.exit(1 if failures else 0)
