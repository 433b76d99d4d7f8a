"""Word lists as regex tries: now ``pipeline.vocab.scan.alternation`` (the text-scanning
helpers in one module); this name is kept for the modules that import it from here."""
from pipeline.vocab.scan import alternation  # noqa: F401
