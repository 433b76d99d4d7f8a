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


# The Python API (docs/python-api.md), imported on first use so that `import pipeline`
# (which every `claims` command does) stays cheap and no submodule imports this package's
# names at load time. ``pipeline.extract`` is the extractor subpackage, so the top-level
# name of ``pipeline.api.extract`` is ``extract_text``.
_API = {
    "Warehouse": ("pipeline.api", "Warehouse"),
    "IngestReport": ("pipeline.api", "IngestReport"),
    "extract_text": ("pipeline.api", "extract"),
    "Claim": ("pipeline.model", "Claim"),
    "Document": ("pipeline.model", "Document"),
    "Verdict": ("pipeline.check", "Verdict"),
    "Trace": ("pipeline.trace", "Trace"),
}

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from importlib import import_module

        module, attr = _API[name]
        value = getattr(import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
