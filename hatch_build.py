"""The wheel's build hook: the engine's hot modules compiled with mypyc.

A regular build (`pip install .`, `pip wheel .`) compiles the modules that
`oracle/native.py` lists (MODULES) when mypy (with mypyc) and a C compiler
are there, and ships them beside their .py files, which stay the
reference: the same package runs interpreted wherever the compiled modules
are absent. Without mypy or a compiler the wheel is pure Python, and the
build says why. An editable install (`pip install -e .`, what the tests
use) is always pure Python.

MB_ORACLE_PURE=1       never compile (and ask for no build dependency)
MB_ORACLE_COMPILED=1   compile or fail the build (no fallback)

mypy is a build dependency only: the compiled modules need nothing of it
at run time.

`compile_modules` is also what tests/test_compiled_identity.py calls (by
way of `pip wheel`) to build the compiled package into a temporary folder.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
GROUP = "mb_oracle"     # the name of mypyc's shared library (mb_oracle__mypyc.*.so)
BUILD_DEPENDENCIES = ["mypy>=1.10", "setuptools>=61"]


def modules(root: Path = ROOT) -> tuple[str, ...]:
    """The modules to compile, read from oracle/native.py without importing the package."""
    tree = ast.parse((root / "oracle" / "native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "MODULES" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError("oracle/native.py has no MODULES")


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def compile_modules(root: Path, names: tuple[str, ...], out: Path) -> dict[str, str]:
    """Compile `names` (modules of the package under `root`) with mypyc; the
    extension files are written under `out`. Returns {file built: its path
    in the wheel}. Raises if mypy or the compiler fails."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    paths = [str(Path(*n.split(".")).with_suffix(".py")) for n in names]
    here = os.getcwd()
    os.chdir(root)      # mypyc names each module by its path from here
    try:
        work = Path(tempfile.mkdtemp(prefix="mb-oracle-mypyc-"))
        try:
            exts = mypycify(paths, opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                            target_dir=str(work / "c"), group_name=GROUP)
            dist = Distribution({"name": "mb-oracle-compiled", "ext_modules": exts})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(out)
            cmd.build_temp = str(work / "temp")
            cmd.parallel = os.cpu_count() or 1
            cmd.ensure_finalized()
            cmd.run()
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        os.chdir(here)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = {}
    for f in out.rglob(f"*{suffix}"):
        built[str(f)] = f.relative_to(out).as_posix()
    return built


def _asked_for_editable() -> bool:
    """Whether hatchling asks for the build dependencies of an editable
    install (PEP 660's get_requires_for_build_editable): hatchling does not
    tell a hook which build it asks for, so the caller is looked for on the
    stack. An editable install is never compiled and needs no mypy; where the
    caller is not found, the dependencies are asked for (nothing breaks)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "get_requires_for_build_editable":
            return True
        frame = frame.f_back
    return False


class CustomBuildHook(BuildHookInterface):
    """Compiles oracle/native.py's MODULES into a regular wheel (never an editable one)."""

    def dependencies(self) -> list[str]:
        # The run-time dependencies too: mypyc compiles against their types,
        # as in the test that checks the compiled build (tests/test_compiled_identity.py).
        if _flag("MB_ORACLE_PURE") or _asked_for_editable():
            return []
        return list(BUILD_DEPENDENCIES) + list(self.metadata.core.dependencies)

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable" or _flag("MB_ORACLE_PURE"):
            return
        required = _flag("MB_ORACLE_COMPILED")
        out = Path(tempfile.mkdtemp(prefix="mb-oracle-compiled-"))
        self._out = out
        try:
            built = compile_modules(Path(self.root), modules(Path(self.root)), out)
        except (Exception, SystemExit) as e:    # distutils reports a missing compiler as SystemExit
            if required:
                raise RuntimeError(f"MB_ORACLE_COMPILED is set and the compiled build failed: {e}") from e
            print(f"mb-oracle: building pure Python (the mypyc build is unavailable: {type(e).__name__}: {e})",
                  file=sys.stderr)
            return
        if not built:
            if required:
                raise RuntimeError("MB_ORACLE_COMPILED is set and mypyc built no module")
            return
        build_data["force_include"].update(built)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        print(f"mb-oracle: compiled {len(built)} extension files with mypyc", file=sys.stderr)

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
