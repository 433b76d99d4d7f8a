from lib import L, cell
D = "gpt-fast-readme.md"
E = dict(engine="gpt-fast")
out = [
 L(D, "Benchmarks run on an 8xA100-80GB", 8e10, "memory", neutral=True),
 L(D, "power limited to 330W", 330, "power", neutral=True),
 L(D, "a very small prompt length (just 5 tokens", 5, "tokens", neutral=True),
]
def rows(key, figs, model, nth_line=1, hw="A100"):
    for i, f in enumerate(figs):
        if f is None:
            continue
        fam = "token_throughput" if i == 0 else "bandwidth"
        v = float(f) if i == 0 else float(f) * 1e9
        kw = dict(scope="per_user") if i == 0 else {}
        out.append(L(D, cell(D, key, f, 1, nth_line), v, fam, model=model, hardware=hw, **kw))
# Table 1 (one GPU, batch size 1)
rows("| Llama-2-7B  | Base    |  104.9", ["104.9", "1397.31"], "Llama-2-7B")
rows("|           | 8-bit   | 155.58", ["155.58", "1069.20"], "Llama-2-7B")
rows("|           | 4-bit (G=32)   | 196.80", ["196.80", "862.69"], "Llama-2-7B")
rows("|           | 8-bit   | 19.13", ["19.13", "1322.58"], "Llama-2-70B")
rows("|           | 4-bit (G=32)   | 25.25", ["25.25", "1097.66"], "Llama-2-70B")
out.append(L(D, "Draft: Llama-7B (int4)](./scripts/speculate_70B_int4.sh): 48.4 tok/s", 48.4, "token_throughput", scope="per_user", model="Llama-70B"))
# Tensor parallelism table (GPU count in the row)
for key, t, b, m, n in [
    ("| Llama-2-7B  | 1    |  104.9", "104.9", "1397.31", "Llama-2-7B", 1),
    ("|           | 2   | 168.84", "168.84", "1181.99", "Llama-2-7B", 2),
    ("|           | 4   | 254.02", "254.02", "955.83", "Llama-2-7B", 4),
    ("|           | 8   | 328.43", "328.43", "704.10", "Llama-2-7B", 8),
    ("|           | 2   | 21.32", "21.32", "1481.87", "Llama-2-70B", 2),
    ("|           | 4   | 38.01", "38.01", "1340.76", "Llama-2-70B", 4),
    ("|           | 8   | 62.50", "62.50", "1135.29", "Llama-2-70B", 8),
]:
    rows(key, [t, b], m, hw=f"{n} x A100")
rows("| Llama-2-70B | Base    | 62.50", ["62.50", "1135.29"], "Llama-2-70B", hw="8 x A100")
rows("|           | 8-bit   | 80.44", ["80.44", "752.04"], "Llama-2-70B", hw="8 x A100")
rows("|           | 4-bit (G=32)   | 90.77", ["90.77", "548.10"], "Llama-2-70B", hw="8 x A100")
rows("| Llama-2-7B  | Base    |  76.33", ["76.33", "1028.70"], "Llama-2-7B", hw="MI-250x")
rows("|           | 8-bit   | 101.86", ["101.86", "700.06"], "Llama-2-7B", hw="MI-250x")
out += [
 L(D, "Note: Running on an A100 80GB", 8e10, "memory", neutral=True),
 L(D, "albeit power-limited to 330 watts", 330, "power", neutral=True),
 L(D, "seems like peak bandwidth is about 1700 GB/s", 1.7e12, "bandwidth", comparator="~", statistic="peak", hardware="A100"),
]
