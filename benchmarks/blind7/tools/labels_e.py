"""tt-metal-llama3-perf.md (pipe tables, per-user unit in the header): hand-written label decisions."""
from lib import L, col, text
D = "tt-metal-llama3-perf.md"
rows = [("1b", "N150"), ("1b", "N300"), ("1b", "T3K"), ("3b", "N150"), ("3b", "N300"), ("3b", "T3K"),
        ("8b", "N150"), ("8b", "N300"), ("8b", "T3K"), ("11b", "N300"), ("11b", "T3K"), ("70b", "T3K")]
speeds = {1: ["85.6", "93.6", "90.5", "46.3", "52.8", "52.0", "27.5", "36.5", "46.7", "36.4", "46.8", "13.9"],
          2: ["81.7", "91.5", "87.8", "41.9", "50.4", "51.4", "22.9", "32.8", "46.0", "32.4", "44.1", "13.9"]}
out = []
for table in (1, 2):
    for (size, dev), sp in zip(rows, speeds[table]):
        key = "| %s | %s |" % (size, dev)
        # the 70b row is identical in both tables; other rows differ only in the speed cell
        nth = 1
        if table == 2:
            lines = [l for l in text(D).split("\n") if key in l]
            nth = 2 if len(lines) > 1 else 1
        # model size column: parameter count of the row's model -> neutral (as in the earlier sets)
        q = col(D, key, 1, nth_line=nth)
        out.append(L(D, q, float(size[:-1]) * 1e9, "parameters", model="Llama 3", neutral=True))
        # Speed (t/s/u): per-user decode speed; Top-1/Top-5 (%) accuracy columns not labelled
        q = col(D, key, 5, nth_line=nth)
        assert q.endswith(sp), (q, sp)
        out.append(L(D, q, float(sp), "token_throughput", scope="per_user", model=size, hardware=dev))
# Not labelled: 'expected values +- 0.5' (accuracy tolerance), Top-1/Top-5 (%), 'bfp4', 'FF1+FF3',
# '3.1-70B' (model name).
