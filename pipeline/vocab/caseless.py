"""Case-blind patterns run as case-sensitive ones over lower-cased text: now in
``pipeline.vocab.scan`` (the text-scanning helpers in one module); this name is kept for
the modules that import it from here."""
from pipeline.vocab.scan import FOLD_FIX, Caseless, fold, lower_source  # noqa: F401
