"""Builds the extension shardgen._shardgen with the project's CMake build
(pip install --no-build-isolation .): python/README.md says how."""

import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    """Configures (once) and builds the target _shardgen, then copies it."""

    def build_extension(self, ext):
        build_dir = os.environ.get("SHARDGEN_CMAKE_BUILD_DIR")
        build_dir = pathlib.Path(build_dir or pathlib.Path(self.build_temp) / "cmake").resolve()
        if not (build_dir / "CMakeCache.txt").exists():
            command = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                       "-DSHARDGEN_BUILD_TESTS=OFF", f"-DSHARDGEN_PYTHON_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                command += ["-G", "Ninja"]
            if shutil.which("ccache"):
                command += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
            # More configure arguments, e.g. the build type and flags of an
            # existing tree, so ccache serves its objects.
            command += shlex.split(os.environ.get("SHARDGEN_CMAKE_ARGS", ""))
            subprocess.run(command, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_shardgen", "-j", jobs],
                       check=True)
        name = "_shardgen" + sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "shardgen" / name
        if not built.exists():
            sys.exit(f"shardgen: {built} was not built: CMake configured {build_dir} for another "
                     "Python, or without python3-dev, pybind11-dev or libdlpack-dev")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


# Not build/ (the CMake build tree of scripts/build.sh); the pip install
# test puts it in its own folder.
BUILD_BASE = os.environ.get("SHARDGEN_PIP_BUILD_DIR", "build-pip")

setup(
    packages=["shardgen"],
    package_dir={"": "python"},
    ext_modules=[Extension("shardgen._shardgen", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
)
