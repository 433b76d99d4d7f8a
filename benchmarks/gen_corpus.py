"""A large Markdown corpus made from the real one by varying its numbers and names.

    python benchmarks/gen_corpus.py OUT [--docs 10000] [--shared ../shared] [--seed 1]

Every Markdown file of ``shared/corpus/real`` is copied again and again (``OUT/v0000/...``,
``OUT/v0001/...``) until ``--docs`` documents exist. Each copy scales its standalone numbers
by one factor per document times a small jitter per number (digits, decimals and thousands
separators kept; numbers inside names, dates and versions untouched) and swaps model,
hardware and engine names through a random permutation per document, so every copy has
other bytes (its own document id), other figures and other subjects, and the extractor does
the same kind of work it does on the real text. Deterministic for a given seed.
"""
from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

# Names that are swapped among themselves (whole words, case-sensitive).
NAME_GROUPS = [
    ["Llama", "Qwen", "Mistral", "Gemma", "Mixtral", "Phi", "Falcon", "Yi"],
    ["H100", "H200", "A100", "B200", "MI300X", "L40S", "GB200", "H800"],
    ["vLLM", "SGLang", "TensorRT-LLM", "LMDeploy", "TGI", "DeepSpeed-FastGen"],
    ["NVIDIA", "AMD", "Intel", "Google", "Microsoft", "Meta"],
]
# A number not glued to a word, dash, dot or slash before it (names, versions, dates) and
# not followed by a digit group, dash or slash; a unit may follow ("2.7x", "8B", "32 QPS").
NUMBER = re.compile(r"(?<![\w.\-/])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d\-/]|\.\d)")
_GROUPS = [re.compile(r"\b(?:" + "|".join(map(re.escape, g)) + r")\b") for g in NAME_GROUPS]


def markdown_files(real: Path) -> list[Path]:
    return sorted(p for p in real.rglob("*.md") if p.name != "README.md" or p.parent != real)


def _scale_number(m: re.Match, factor: float, rnd: random.Random) -> str:
    whole, frac = m.group(1), m.group(2) or ""
    value = float(whole.replace(",", "") + frac)
    if value == 0 or (not frac and 1900 <= value <= 2100):    # zeros and years stay
        return m.group(0)
    new = value * factor * rnd.uniform(0.97, 1.03)
    decimals = len(frac) - 1 if frac else 0
    text = f"{new:,.{decimals}f}" if "," in whole else f"{new:.{decimals}f}"
    if not frac and new < 1:
        text = "1"
    return text


def vary(text: str, rnd: random.Random) -> str:
    """One variant of ``text``: numbers scaled, names permuted."""
    factor = rnd.uniform(0.5, 2.0)
    text = NUMBER.sub(lambda m: _scale_number(m, factor, rnd), text)
    for group, pattern in zip(NAME_GROUPS, _GROUPS):
        target = group[:]
        rnd.shuffle(target)
        mapping = dict(zip(group, target))
        text = pattern.sub(lambda m: mapping[m.group(0)], text)
    return text


def generate(real: Path, out: Path, docs: int, seed: int = 1) -> tuple[int, int]:
    """Write ``docs`` variants under ``out``; returns (documents, bytes)."""
    sources = [(p.relative_to(real), p.read_text("utf-8")) for p in markdown_files(real)]
    rnd = random.Random(seed)
    n = total = 0
    variant = 0
    while n < docs:
        folder = out / f"v{variant:04d}"
        for rel, text in sources:
            if n >= docs:
                break
            data = vary(text, rnd).encode("utf-8")
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            n += 1
            total += len(data)
        variant += 1
    return n, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--shared", type=Path,
                    default=Path(__file__).resolve().parents[1].parent / "shared")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n, size = generate(args.shared / "corpus" / "real", args.out, args.docs, args.seed)
    print(f"{n} documents, {size / 1e6:.1f} MB of Markdown in {args.out}")


if __name__ == "__main__":
    main()
