from lib import L, cell
D = "lmsys-k2-large-scale-ep.md"
K2, R1 = "Kimi K2", "DeepSeek R1"
H = "128 x H200"
out = [
 L(D, "**1 trillion total parameters**", 1e12, "parameters", model=K2),
 L(D, "**32 billion activated parameters per token**", 3.2e10, "parameters", model=K2),
 L(D, "**5× throughput improvement**", 5, "ratio", model=R1),
 L(D, "scaling to Kimi K2’s 1T-parameter architecture", 1e12, "parameters", model=K2),
 L(D, "Handles large prompt ingestion (e.g., 2000-token", 2000, "tokens", neutral=True),
 L(D, "Handles autoregressive generation (e.g., 100-token", 100, "tokens", neutral=True),
 L(D, "## 4️⃣ Performance: 2000", 2000, "tokens", neutral=True),
 L(D, "## 4️⃣ Performance: 2000-Input, 100", 100, "tokens", neutral=True),
 L(D, "| **Input Length** | 2000 tokens", 2000, "tokens", neutral=True),
 L(D, "| **Output Length** | 100 tokens", 100, "tokens", neutral=True),
 L(D, "| **Prefill Throughput** | **896k tokens/sec", 896000, "token_throughput", scope="aggregate", model=K2, hardware=H),
 L(D, "| **Decode Throughput** | **384k tokens/sec", 384000, "token_throughput", scope="aggregate", model=K2, hardware=H),
 L(D, "| **Cost per 1M Output Tokens** | **~$0.21", 0.21, "money", comparator="~", model=K2, hardware="H200"),
 L(D, "| **Cost per 1M Output Tokens** | **~$0.21 (H200 $2.3 / hour", 2.3, "money", hardware="H200"),
 L(D, cell(D, "| **DeepSeek R1** |", "52.3k"), 52300, "token_throughput", scope="per_node", model=R1, hardware="96 x H100"),
 L(D, cell(D, "| **DeepSeek R1** |", "22.3k"), 22300, "token_throughput", scope="per_node", model=R1, hardware="96 x H100"),
 L(D, cell(D, "| **Kimi K2** |", "56k"), 56000, "token_throughput", scope="per_node", model=K2, hardware=H),
 L(D, cell(D, "| **Kimi K2** |", "24k"), 24000, "token_throughput", scope="per_node", model=K2, hardware=H),
 L(D, "can range from 30,000 to 50,000 tokens", 30000, "tokens", high=50000),
 L(D, "(~$0.21 per 1M output tokens on H200)", 0.21, "money", comparator="~", model=K2, hardware="H200"),
]
