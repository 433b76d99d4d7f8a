"""token-by-token-linkedin-draft.md (prose, LinkedIn draft + editorial note): hand-written label decisions."""
from lib import L
D = "token-by-token-linkedin-draft.md"
H200 = dict(hardware="1 x H200")
out = [
 # headline: SGLang vs vLLM output throughput, Episode 01 (one H200 each); baseline vLLM
 L(D, "27.5% more output throughput", 27.5, "percent", hardware="H200"),
 # "At 16 simulated users" is the load setting (not labelled). Denominator: the whole deployment on one
 # GPU -> judgement call, scope left open.
 L(D, "the recorded SGLang deployment delivered 480.44 output tokens/s", 480.44, "token_throughput", **H200),
 L(D, "vLLM delivered 376.73", 376.73, "token_throughput", **H200),
 # SLO floor: a target, not a measurement
 L(D, "declared decode floor: p10 ≥ 20 tokens/s", 20, "token_throughput", comparator=">=", neutral=True),
 # "respectively" list: 17.48 -> SGLang, 15.96 -> vLLM; slow-tail = the p10 of the floor (statistic not
 # given: the text says "slow-tail", not a named percentile)
 L(D, "Their slow-tail decode speeds were 17.48", 17.48, "token_throughput", **H200),
 L(D, "Their slow-tail decode speeds were 17.48 and 15.96 tokens/s, respectively", 15.96, "token_throughput", **H200),
 # Episode 00 on H100; baseline SGLang
 L(D, "vLLM recorded 48.9% higher output throughput", 48.9, "percent", hardware="H100"),
 L(D, "alongside 19.8% higher median time per output token", 19.8, "percent", statistic="median", hardware="H100"),
 # load settings 12/16/24 users and 'two session slots' not labelled; measurement windows neutral
 L(D, "a 120-second warm-up", 120, "latency", neutral=True),
 L(D, "300-second measured windows", 300, "latency", neutral=True),
 L(D, "both recorded p95 first-token waits of roughly 30 seconds", 30, "latency", statistic="p95", comparator="~"),
 # cost of the benchmark campaign
 L(D, "Episode 00's broader campaign billed $11.83", 11.83, "money"),
 # editorial note: refers back to the headline figure (one line per mention)
 L(D, "The 27.5% comparison uses vLLM as denominator", 27.5, "percent", hardware="H200"),
 # a billing figure the note says must NOT be presented as the Episode 01 cost: still a stated cost figure
 L(D, "Do not present the $19.0664", 19.0664, "money"),
]
# Not labelled: front-matter hash, '16 simulated users' / '12, 16 and 24 users' / 'two session slots' (load
# settings), 'Episode 00/01', 'six Episode 01 measurements' (count), 'October 4–5' (dates), 'LLM Inference 101'
# (title), URLs.
