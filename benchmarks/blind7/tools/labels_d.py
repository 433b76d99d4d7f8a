"""lmsys-gpt-oss-dgx-spark.md (blog post): hand-written label decisions."""
from lib import L
D = "lmsys-gpt-oss-dgx-spark.md"
S = dict(hardware="DGX Spark")
out = [
 # single-request local decoding; no denominator written -> scope open
 L(D, "around **70 tokens/s**", 70, "token_throughput", comparator="~", model="GPT-OSS 20B", **S),
 # 'around' may or may not govern the second conjunct: comparator not given (*Silent*)
 L(D, "around **70 tokens/s** on GPT-OSS 20B and **50 tokens/s**", 50, "token_throughput", model="GPT-OSS 120B", **S),
 # size ratio of the two checkpoints
 L(D, "This model is roughly 6×", 6, "ratio", comparator="~", model="GPT-OSS 120B"),
 # 'the 20B version': a parameter count used as a variant name (like 'a 70B model') -> neutral, hard
 L(D, "larger than the 20B", 20e9, "parameters", neutral=True, hard=True),
 L(D, "You should see around **70 tokens per second**", 70, "token_throughput", comparator="~",
   model="GPT-OSS 20B", **S),
]
# Not labelled: 'GPT-OSS 20B/120B' (names, also 'GPT-OSS 20B or 120B'), date, section numbers '1\\.'..'7\\.',
# 'Step 1'..'3', '--shm-size 32g', ports 30000/3000 and '0.0.0.0', o200k/cl100k (encoding names), URLs,
# 'multi-tens-of-billion-parameter' (no figure).
