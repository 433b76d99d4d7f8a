from lib import L, cell
D = "lmdeploy-w4a16.md"
HW = "RTX 4090"
out = [L(D, "by setting a single prompt token and generating 512 tokens", 512, "tokens", neutral=True)]
for key, figs, m in [("| Llama-2-7B-chat  |", ["112.9", "159.4", "206.4"], "Llama-2-7B-chat"),
                     ("| Llama-2-13B-chat |", [None, "90.7", "115.8"], "Llama-2-13B-chat")]:
    for f, eng in zip(figs, ["llm-awq", "mlc-llm", "turbomind"]):
        if f:
            out.append(L(D, cell(D, key, f), float(f), "token_throughput", model=m, hardware=HW, engine=eng))
