"""Word lists as regex tries.

``re`` tries the branches of an alternation one after another at every place it looks,
so a list of a hundred names costs a hundred tries per word. Laid out as a trie
("se(?:ven(?:t(?:een|y)|)|...)") a place is ruled out by its first letters.
"""
from __future__ import annotations

import re


def alternation(terms: dict[str, str | None]) -> str:
    """A pattern matching any of ``terms`` (words -> what must follow each: a pattern,
    "" for nothing, or None for a stem that anything may follow, which ends the branch).
    Longer words are tried before their prefixes, as a longest-first alternation would."""
    trie: dict = {}
    for word, end in terms.items():
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = end

    def pattern(node: dict) -> str:
        if "" in node and node[""] is None:
            return ""
        alts = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            alts.append(node[""])
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return pattern(trie) if trie else "(?!)"
