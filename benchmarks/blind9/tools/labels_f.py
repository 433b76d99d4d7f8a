"""trtllm-scaffolding-dynasor-blog.md (NVIDIA/TensorRT-LLM tech blog 13, Scaffolding / Dynasor-CoT):
mostly design text and Python. Traps: configuration values in code and prose (max_batch_size=32,
max_num_tokens=4096, max_tokens=8192 / 1024 / 20, chunk_size=64, 'every 32, 64, or 128 tokens',
'generating 20 tokens'), an arXiv id, a date, model names with sizes (Qwen-7B, Qwen-2.5 7B), an example
answer '3159.', 'token budget(s)' without a number. The figures: a speedup in a figure caption, token
counts of reasoning traces (one worked example, two medians), a token reduction in a caption.
Hand-written label decisions."""
from lib import L
D = "trtllm-scaffolding-dynasor-blog.md"
out = [
    # Figure 2 caption: speedup against the baseline (no Dynasor) on MATH500
    L(D, "achieving a 5.74", 5.74, "ratio", model="DeepSeek-R1-Distill-Qwen-7B"),
    # one illustrative question: token counts of two models' answers -> neutral (an example, not a
    # benchmark result); 'Qwen-7B' is a name
    L(D, "reaches its answer in 180", 180, "tokens", neutral=True),
    L(D, "the reasoning model expends 1,000", 1000, "tokens", neutral=True),
    L(D, "the correct answer at token 340", 340, "tokens", neutral=True),
    # AMC23 (Figure 3: DeepSeek-R1): medians of where the answer is reached and of the generated length
    L(D, "early (median: 830", 830, "tokens", statistic="median"),
    L(D, "self-doubt (median: 2.7K", 2700, "tokens", statistic="median"),
    # Figure 3 caption: equivalent accuracy with half the tokens
    L(D, "equivalent accuracy with a 50", 50, "percent", model="DeepSeek-R1"),
    # 'every 32, 64, or 128 tokens' (probe interval), 'All three probe requests', '3159.',
    # 'generating 20 tokens' (probe length), code values, 'Feb. 16, 2025', '[1]': not labelled.
]
