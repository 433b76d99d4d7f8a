"""Which characters or prefixes a regular expression's matches start with: now in
``pipeline.vocab.scan`` (the text-scanning helpers in one module); this name is kept for
the modules that import it from here."""
from pipeline.vocab.scan import first_chars, lookahead, prefixes, word_led  # noqa: F401
