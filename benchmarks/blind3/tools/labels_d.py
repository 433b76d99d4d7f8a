from lib import L, cell, text
D = "lmsys-sglang-mtp.md"
M = "DeepSeek V3"
H1 = dict(model=M, hardware="16 x H200", engine="SGLang")
out = [
 L(D, "This integration delivers **up to 60% higher output throughput**", 60, "percent", comparator="<=", engine="SGLang"),
 L(D, "MTP unlocks up to 60% higher output throughput for DeepSeek V3", 60, "percent", comparator="<=", model=M, engine="SGLang"),
 L(D, "the company required a minimum sustained output of 60.4 tokens/sec per rank", 60.4, "token_throughput", comparator=">=", neutral=True),
 L(D, "input sequence length of 65,536 tokens", 65536, "tokens", neutral=True),
 L(D, "output sequence length of 4,096 tokens", 4096, "tokens", neutral=True),
 L(D, "the system achieves an output throughput of 51 tokens/sec per rank", 51, "token_throughput", **H1),
 L(D, "we achieved 60.4 tokens/sec per rank", 60.4, "token_throughput", **H1),
 L(D, "the system achieves a throughput of 81.5 tokens/sec per rank", 81.5, "token_throughput", **H1),
 L(D, "with an average acceptance length of 2.18 tokens", 2.18, "tokens", statistic="mean", neutral=True),
 L(D, "throughput increases to 82.0 tokens/sec per rank", 82.0, "token_throughput", **H1),
 L(D, "with an average acceptance length of 2.44 tokens", 2.44, "tokens", statistic="mean", neutral=True),
 L(D, "These results represent a +60% improvement", 60, "percent", **H1),
]
for key, tp, pct in [("| ❌                 | ❌        |", "51.0", None),
                     ("| ✅                 | ❌        |", "60.4", "20.4"),
                     ("| ❌                 | ✅ 3-token|", "81.5", "59.8"),
                     ("| ❌                 | ✅ 4-token|", "82.0", "60.8")]:
    out.append(L(D, cell(D, key, tp), float(tp), "token_throughput", **H1))
    if pct:
        out.append(L(D, cell(D, key, pct), float(pct), "percent", **H1))
out += [
 L(D, "input sequence length of 2,000 tokens", 2000, "tokens", neutral=True),
 L(D, "output sequence length of 100 tokens", 100, "tokens", neutral=True),
 L(D, "we observe a +14.2% increase in output throughput", 14.2, "percent", model=M, hardware="128 x H200", engine="SGLang"),
 L(D, "average acceptance lengths consistently above 2", 2, "tokens", comparator=">", neutral=True),
]
