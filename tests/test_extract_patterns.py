"""Line-start scans must find what the ``(?m)^`` patterns they stand in for find."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from pipeline.extract.patterns import AtLineStart

BODIES = [r"#{1,6}[ \t]", r"[ \t]*\|[^\n]*"]


@pytest.mark.parametrize("body", BODIES)
@given(text=st.text(alphabet="#| \t\n-ab", max_size=40))
def test_same_spans_as_a_multiline_caret(body, text):
    plain = re.compile("(?m)^" + body)
    assert list(AtLineStart(body).spans(text)) == [m.span() for m in plain.finditer(text)]


def test_first_line_and_later_lines():
    assert list(AtLineStart(BODIES[0]).spans("# a\ntext\n## b\n")) == [(0, 2), (9, 12)]
