"""The `claims` spaCy component (docs/spacy.md): the project's extractor inside a spaCy pipeline.

    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("claims")          # found through the `spacy_factories` entry point
    doc = nlp("It reaches 826 tokens/s per user on four B300 GPUs.")
    doc.spans["claims"], doc._.claims

It runs ``pipeline.api.extract`` on ``doc.text``, the very function ``claims extract``
and the Python API call, so a spaCy user gets the same claims, ids and offsets as the
batch path; it never re-implements a rule, and the batch path never imports spaCy (its
sentencizer alone reads under 1 MB/s).

Each claim becomes a span of ``doc.spans[span_key]`` (label = the claim's family, ``id``
= the claim's id) over the tokens its characters touch (``alignment_mode="expand"``: a
claim may start or end inside a token). What the spans carry is stored as plain data, so
that a ``Doc`` crosses ``nlp.pipe(n_process=2)`` (spaCy sends docs between processes as
``Doc.to_bytes``) and ``DocBin(store_user_data=True)``:

* ``Doc._.claims_data``: every claim's fields as a dict (``Claim.to_dict()``), in text
  order: the stored value (one per doc, not one per span: spaCy keys a span's values by
  its character offsets alone, and two claims can expand to the same tokens);
* ``Doc._.claims``: the same as ``pipeline.model.Claim`` records (a getter);
* ``Span._.claim``: the ``Claim`` whose id the span carries (``span.id_``; a getter);
* ``Span._.entities``: the named entities of the claim's sentence, when a trained
  pipeline (or an entity ruler) ran before this component (a getter; it never changes
  the claims, which come from the text alone);
* ``Doc._.claims_metadata`` (set by the caller, optional): the document fields
  ``extract`` takes (``title``, ``publisher``, ``url``, ...), which matter to extraction:
  a figure whose sentence names no model takes the one the title names.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span

from pipeline.api import extract
from pipeline.model import Claim

__all__ = ["ClaimsComponent", "make_claims", "claim_span", "DEFAULT_SPAN_KEY"]

DEFAULT_SPAN_KEY = "claims"


def _record(data: dict[str, Any]) -> Claim:
    """A Claim from its stored fields (msgpack, which DocBin and ``nlp.pipe(n_process=N)``
    go through, gives a list back as a tuple)."""
    return Claim(**{k: (list(v) if isinstance(v, tuple) else v) for k, v in data.items()})


def _claims_of(doc: Doc) -> list[Claim]:
    return [_record(d) for d in doc._.claims_data or ()]


def _claim_of(span: Span) -> Claim | None:
    """The claim whose id the span carries (None for a span the component did not make)."""
    cid = span.id_
    for data in span.doc._.claims_data or ():
        if data["id"] == cid:
            return _record(data)
    return None


def _entities_of(span: Span) -> list[Span]:
    """The named entities (``doc.ents``, from a trained pipeline's ``ner`` or an
    ``entity_ruler`` earlier in the pipeline) in the sentence of the span's claim, or in
    the span itself for a claim without a sentence (a table cell)."""
    claim = _claim_of(span)
    if claim is None:
        return []
    lo = claim.sentence_start if claim.sentence_start is not None else span.start_char
    hi = claim.sentence_end if claim.sentence_end is not None else span.end_char
    return [e for e in span.doc.ents if e.start_char < hi and e.end_char > lo]


def _register_extensions() -> None:
    """Set the extensions once per process (a second set would raise, or with force
    drop the values of docs already made)."""
    if not Doc.has_extension("claims_data"):
        Doc.set_extension("claims_data", default=None)
    if not Doc.has_extension("claims"):
        Doc.set_extension("claims", getter=_claims_of)
    if not Span.has_extension("claim"):
        Span.set_extension("claim", getter=_claim_of)
    if not Span.has_extension("entities"):
        Span.set_extension("entities", getter=_entities_of)
    if not Doc.has_extension("claims_metadata"):
        Doc.set_extension("claims_metadata", default=None)


_register_extensions()


def claim_span(doc: Doc, claim: Claim) -> Span:
    """The span of the tokens ``doc.text[claim.start:claim.end]`` touches
    (``alignment_mode="expand"``: a figure glued to a word widens to the whole token),
    labelled with the claim's family and carrying its id. spaCy gives a span for every
    non-empty range inside the text, a token's trailing space included."""
    span = doc.char_span(claim.start, claim.end, label=claim.family, span_id=claim.id,
                         alignment_mode="expand")
    if span is None:        # only for offsets outside the text: not this text's claim
        raise ValueError(f"claim {claim.id} [{claim.start}:{claim.end}] is outside the "
                         f"text ({len(doc.text)} characters)")
    return span


class ClaimsComponent:
    """Fills ``doc.spans[span_key]`` with one span per claim ``pipeline.api.extract``
    reads in ``doc.text``. Stateless: nothing to train, initialise or save."""

    def __init__(self, nlp: Language, name: str = "claims",
                 span_key: str = DEFAULT_SPAN_KEY) -> None:
        self.name = name
        self.span_key = span_key

    def __call__(self, doc: Doc) -> Doc:
        metadata: dict[str, Any] = dict(doc._.claims_metadata or {})
        claims = extract(doc.text, **metadata)
        doc.spans[self.span_key] = [claim_span(doc, c) for c in claims]
        doc._.claims_data = [c.to_dict() for c in claims]
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        """The docs one by one: extraction reads one text at a time, so batching adds
        nothing (``nlp.pipe(n_process=N)`` spreads docs over processes)."""
        for doc in docs:
            yield self(doc)


@Language.factory(
    "claims",
    default_config={"span_key": DEFAULT_SPAN_KEY},
    assigns=["doc.spans", "doc._.claims_data"],
)
def make_claims(nlp: Language, name: str, span_key: str) -> ClaimsComponent:
    """The factory `nlp.add_pipe("claims")` calls (the `spacy_factories` entry point
    names it, so spaCy finds it without `import pipeline.spacy_component`)."""
    return ClaimsComponent(nlp, name, span_key=span_key)
