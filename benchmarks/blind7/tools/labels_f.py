"""tt-metal-llama3-70b-galaxy-readme.md (model README: settings, flags, context presets): label decisions."""
from lib import L
D = "tt-metal-llama3-70b-galaxy-readme.md"
M = dict(model="Llama-3.3-70B", hardware="Galaxy")
out = [
 # supported context length (capability of the system) -> required tokens claim
 L(D, "**Flexible Sequence Lengths**: Up to 128k tokens", 128e3, "tokens", comparator="<=", **M),
 # demo workload settings -> neutral
 L(D, "32 users each with up to 128 tokens", 128, "tokens", comparator="<=", neutral=True, **M),
 L(D, "it will generate 128 new tokens", 128, "tokens", neutral=True, **M),
 L(D, "# 4k input prompt context", 4e3, "tokens", neutral=True, **M),
 L(D, "# 8k input prompt context", 8e3, "tokens", neutral=True, **M),
 L(D, "# 16K input prompt context", 16e3, "tokens", neutral=True, **M),
 L(D, "# 32k input prompt context", 32e3, "tokens", neutral=True, **M),
 L(D, "`performance-long-64k-b1`, # 64k input prompt context", 64e3, "tokens", neutral=True, **M),
 # the 128k preset's comment says 64k (a slip in the source); labelled as written
 L(D, "`performance-long-128k-b1`, # 64k input prompt context", 64e3, "tokens", neutral=True, **M),
 L(D, "for prefill lengths up to 2048 tokens", 2048, "tokens", comparator="<=", neutral=True, **M),
 # parameter descriptions: ranges of configuration values -> neutral
 L(D, "**max_seq_len (int)**: Maximum context length (up to 128k", 128e3, "tokens", comparator="<=", neutral=True, **M),
 L(D, "the maximum sequence length we have validated is 16K tokens", 16e3, "tokens", neutral=True, **M),
 # prose capability statement -> required, like the feature bullet
 L(D, "any arbitrary sequence input sequence length up to 128K tokens", 128e3, "tokens", comparator="<=", **M),
 L(D, "but with a 128K input", 128e3, "tokens", neutral=True, **M),
 L(D, "This would run the same test as 64K", 64e3, "tokens", neutral=True, **M),
 L(D, "This would run the same test as 64K but with a 128K input", 128e3, "tokens", neutral=True, **M),
 L(D, "Maximum context length supported by the model (up to 128k", 128e3, "tokens", comparator="<=", neutral=True, **M),
 L(D, "as long as they don't surpass 128K tokens", 128e3, "tokens", comparator="<=", neutral=True, **M),
]
# Not labelled: 'up to 32 users per batch', 'exactly 32 users', batch_size lists, '128 decode iterations'
# (iteration counts / batch settings), layer counts (1, 10, 80; 'Default = 80'), preset names
# ('performance-long-4k-b1', 'performance-batch-32', 'input_data_long_128k.json'), model names
# (Llama3.3-70, LLama-3.3-70B, Meta-Llama-3-70B-Instruct), bfloat8/bfloat16, issue 30601,
# LINE_RS/LINE_AG = 0/1, code and JSON ("max_length": 2048, VLLM_RPC_TIMEOUT=900000, worker_l1_size 1344544,
# trace_region_size 184915840, --num_concurrent 32), URLs.
