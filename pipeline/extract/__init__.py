"""Document -> [Claim]. ``extract_claims`` is the stage's single entry point."""
from pipeline.extract.claims import extract_claims

__all__ = ["extract_claims"]

# Part of every document's fingerprint: changing it makes the next ingest re-extract
# unchanged files, so stored claims never lag behind the extractor.
VERSION = "2026.12.02-3"
