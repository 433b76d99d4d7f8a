"""Formats other tools read (docs/formats.md): schema.org ClaimReview for fact-checkers
(``claims check --format claimreview``) and W3C PROV-JSON for provenance tools
(``claims export prov``). Each module turns what the checker or the warehouse already
holds into that format; none judges or links anything itself."""
