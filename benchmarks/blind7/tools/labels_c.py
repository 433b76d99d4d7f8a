"""mlperf-v4.1-nvidia-b200-summary.html (HTML result page): hand-written label decisions."""
from lib import L
D = "mlperf-v4.1-nvidia-b200-summary.html"
out = [
 # system description tables: capacities and power are hardware specs -> neutral
 L(D, "<td>accelerator_memory_capacity</td><td>180 GB", 180e9, "memory", neutral=True),
 L(D, "<td>host_memory_capacity</td><td>408GB", 408e9, "memory", neutral=True),
 L(D, "<td>host_memory_configuration</td><td>6x 64GB", 64e9, "memory", neutral=True),
 L(D, "<td>hw_notes</td><td>B200 TGP 1000W", 1000, "power", neutral=True),
]
# Results table: two header rows (Server / Offline over Metric / Performance); the unit sits in the Metric
# cell left of each figure. One B200 (1x B200-SXM-180GB in the title bar): single-GPU system, no denominator
# in the header -> scope open. Model from the row ('llama2-70b-99' = Llama 2 70B at the 99% accuracy target).
C = dict(model="llama2-70b", hardware="1 x B200")
for row in ("llama2-70b-99", "llama2-70b-99.9"):
    pre = ("<tr><td>%s</td><td>ROUGE1: " % row)
    acc = {"llama2-70b-99": "43.9869, ROUGE2: 21.8148, ROUGEL: 28.33, TOKENS_PER_SAMPLE: 265.005",
           "llama2-70b-99.9": "44.3868, ROUGE2: 22.0132, ROUGEL: 28.5876, TOKENS_PER_SAMPLE: 265.005"}[row]
    # tokens per sample inside the accuracy target: a workload statistic -> neutral
    out.append(L(D, pre + acc, 265.005, "tokens", neutral=True))
    q = pre + acc + "</td><td>Tokens/s</td> <td>10755.6"
    out.append(L(D, q, 10755.6, "token_throughput", **C))
    q = q + "</td><td>Tokens/s</td> <td>11264.4"
    out.append(L(D, q, 11264.4, "token_throughput", **C))
# Not labelled: ROUGE scores (accuracy), 'v4.1', 'Copyright 2019-2024', 'Aug 2024', 'PCIe Gen5 x16',
# '2x 10Gbe' (network port spec), core and processor counts, part numbers (B200-SXM-180GB,
# MTC40F2046S1RC48BA1, Xeon Silver 4410Y), software versions and git hashes, CSS widths/pixels.
