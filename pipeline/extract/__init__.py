"""Document -> [Claim]. ``extract_claims`` is the stage's single entry point."""
from pipeline.extract.claims import extract_claims

__all__ = ["extract_claims"]
