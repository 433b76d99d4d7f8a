"""exllama-readme.md (turboderp/exllama README, an early version): three pipe tables whose rows are
labelled by model size + quantization + engine ('7B 4bit 128g, ExLlama') or by GPU with its memory
('4090/24GB + 3070Ti/8GB'), units inside every cell ('2,048 t', '5,092 MB', '2,571 t/s'), a cell with
two figures ('22,055 MB + 7,377 MB'), a perplexity column (not labelled), footnote markers, versions and
a git hash. Hand-written label decisions."""
from lib import L, col, upto, text
D = "exllama-readme.md"
lines = text(D).split("\n")

def row(key):
    return [l for l in lines if l.startswith("| " + key)][0]

out = []
# --- prose before the tables ---
# 'RTX 4090', 'RTX 3070-Ti' (names); torch 2.1.0, cu118, safetensors 0.3.1 (versions); 'groupsize 128' (a
# quantization setting); the command-line flags: not labelled.

# --- Table 1 'New implementation' (ExLlama, stock RTX 4090 per the sentence under the table) ---
# Columns: Seq. len. (a setting: tokens, neutral), VRAM (measured memory, required), Long seq. (prompt
# throughput over the long sequence, required), Ind. (throughput of the individually generated tokens,
# required), Ppl (perplexity: a quality score, not labelled). The model size at the head of each row
# ('7B') is a parameter count of the model that is a condition of the row -> neutral.
# Scope: one GPU, no per-GPU / per-user wording -> left open.
T1 = [("7B 4bit 128g, ExLlama", "7B", 7e9, 2048, 5092e6, 2571, 96),
      ("13B 4bit 128g, ExLlama", "13B", 13e9, 2048, 8975e6, 1957, 60),
      ("30B 4bit 128g, ExLlama", "30B", 30e9, 2048, 20544e6, 1149, 32)]
for key, size, params, seq, vram, longseq, ind in T1:
    c = dict(model=size, hardware="RTX 4090")
    r = row(key)
    out += [
        L(D, upto(r, size), params, "parameters", neutral=True),
        L(D, col(D, "| " + key, 2), seq, "tokens", neutral=True),
        L(D, col(D, "| " + key, 3), vram, "memory", **c),
        L(D, col(D, "| " + key, 4), longseq, "token_throughput", **c),
        L(D, col(D, "| " + key, 5), ind, "token_throughput", **c),
    ]
# 'the last 128 tokens generated individually': how the runs were made -> neutral tokens
out.append(L(D, "with the last 128", 128, "tokens", neutral=True))
# advice: a VRAM target for the model and the capacity of a 24 GB card -> neutral (not a measurement)
out.append(L(D, "probably aiming for 20 GB", 20e9, "memory", neutral=True))
out.append(L(D, "probably aiming for 20 GB on a 24 GB", 24e9, "memory", neutral=True))

# --- Table 2 'Testing long sequences' (30B 4bit 128g, per the sentence above the table) ---
# the model size in the bold run-in sentence -> neutral parameters
out.append(L(D, "all done on **30B", 30e9, "parameters", neutral=True))
# 'Llama goes incoherent generating past 2048 tokens': the model's trained context, a size of the model
# rather than a measurement of this system -> neutral
out.append(L(D, "generating past 2048", 2048, "tokens", neutral=True))
# GPU memory in the row labels (4090/24GB, 3070Ti/8GB, A6000/48GB): capacities inside GPU names -> neutral.
# Seq. len. here is the longest sequence that fit on those GPUs; the table reads it as a run setting
# ('with various settings') -> neutral (in doubt, as GUIDELINES say for settings).
c30 = dict(model="30B")
r = row("4090/24GB              ")
out += [
    L(D, upto(r, "24GB"), 24e9, "memory", neutral=True),
    L(D, col(D, "| 4090/24GB              ", 2), 2516, "tokens", neutral=True),
    L(D, col(D, "| 4090/24GB              ", 3), 22145e6, "memory", hardware="4090/24GB", **c30),
    L(D, col(D, "| 4090/24GB              ", 4), 1140, "token_throughput", hardware="4090/24GB", **c30),
    L(D, col(D, "| 4090/24GB              ", 5), 28, "token_throughput", hardware="4090/24GB", **c30),
]
k = "| 4090/24GB + 3070Ti/8GB"
r = row("4090/24GB + 3070Ti/8GB")
HW2 = "4090/24GB + 3070Ti/8GB"
out += [
    L(D, upto(r, "24GB"), 24e9, "memory", neutral=True),
    L(D, upto(r, "8GB"), 8e9, "memory", neutral=True),
    L(D, col(D, k, 2), 3932, "tokens", neutral=True),
    # two figures in one cell: the memory used on each of the two GPUs
    L(D, upto(r, "22,055 MB"), 22055e6, "memory", hardware="4090", **c30),
    L(D, col(D, k, 3), 7377e6, "memory", hardware="3070Ti", **c30),
    L(D, col(D, k, 4), 840, "token_throughput", hardware=HW2, **c30),
    L(D, col(D, k, 5), 22, "token_throughput", hardware=HW2, **c30),
]
k = "| A6000/48GB (headless)"
r = row("A6000/48GB (headless)")
out += [
    L(D, upto(r, "48GB"), 48e9, "memory", neutral=True),
    L(D, col(D, k, 2), 9032, "tokens", neutral=True),
    L(D, col(D, k, 3), 46863e6, "memory", hardware="A6000/48GB", **c30),
    L(D, col(D, k, 4), 645, "token_throughput", hardware="A6000/48GB", **c30),
    L(D, col(D, k, 5), 12, "token_throughput", hardware="A6000/48GB", **c30),
]

# --- Table 3 'Comparisons': GPTQ-for-LLaMa (HF) baseline for 'the same task' ---
# Same columns. The GPU is not restated for these runs -> no hardware. The git hash in the link, the
# '<sup>1</sup>' markers and '16-bit' (a setting in the row label) are not labelled. Seq. len. neutral
# (the footnote says it was reduced for two rows: still a setting). Ppl not labelled.
T3 = [("7B 4bit 128g, HF                        ", "7B", 7e9, 2048, 8940e6, 2218, 45),
      ("13B 4bit 128g, HF                       ", "13B", 13e9, 2048, 14902e6, 1413, 36),
      ("30B 4bit 128g, HF <sup>1</sup>          ", "30B", 30e9, 256, 21063e6, 168, 26),
      ("7B 4bit 128g, HF, 16-bit                ", "7B", 7e9, 2048, 6058e6, 2887, 45),
      ("13B 4bit 128g, HF, 16-bit               ", "13B", 13e9, 2048, 10563e6, 2212, 36),
      ("30B 4bit 128g, HF, 16-bit <sup>1</sup>  ", "30B", 30e9, 1024, 20715e6, 850, 23)]
for key, size, params, seq, vram, longseq, ind in T3:
    c = dict(model=size)
    r = row(key)
    out += [
        L(D, upto(r, size), params, "parameters", neutral=True),
        L(D, col(D, "| " + key, 2), seq, "tokens", neutral=True),
        L(D, col(D, "| " + key, 3), vram, "memory", **c),
        L(D, col(D, "| " + key, 4), longseq, "token_throughput", **c),
        L(D, col(D, "| " + key, 5), ind, "token_throughput", **c),
    ]
# Todo list: no figures.
