"""claims: numeric performance claims from LLM-inference posts and PDFs, checked.

``__version__`` comes from the installed package's metadata (pyproject.toml is the one
place the version is written); a source tree without metadata says ``0+unknown``.
"""
from __future__ import annotations


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:     # pragma: no cover (Python 3.8+ has it)
        return "0+unknown"
    try:
        return version("claims")
    except PackageNotFoundError:
        return "0+unknown"


__version__ = _version()
