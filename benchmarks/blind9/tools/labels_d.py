"""lightllm-intro.rst (ModelTC/lightllm docs/EN/source/lightllm_info/lightllm.rst): reStructuredText
with a `list-table` directive (qualitative cells only), figure directives with ':width: 100%', a
paragraph in Chinese, and four comparative claims whose baseline sits in the same sentence ('higher
throughput than vLLM and Text Generation Inference ... around 4 times', 'a 2-3x improvement over TGI and
vLLM', 'more than a 4x ... compared to the original TGI', 'nearly 50% performance improvement').
Hand-written label decisions."""
from lib import L
D = "lightllm-intro.rst"
out = [
    # 'billons of parameters', 'tens to hundreds of gigabytes': no figure.
    L(D, "with performance improvements of around 4", 4, "ratio", comparator="~"),
    # list-table: low / middle / high, no figure. ':width: 100%' (figure directive option): not labelled.
    # range ratio, model in parentheses (LLaMA-65B is a name: its size is not labelled)
    L(D, "achieves around a 2-3", 2, "ratio", high=3, comparator="~", model="LLaMA-65B"),
    L(D, "leads to more than a 4", 4, "ratio", comparator=">"),
    L(D, "can bring about nearly 50", 50, "percent", comparator="~"),
    # 'int8 int4': precisions, not labelled.
]
