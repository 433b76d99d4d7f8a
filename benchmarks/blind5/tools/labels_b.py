"""lmdeploy-kv-int8.md: hand-written label decisions."""
from lib import L, cell
D = "lmdeploy-kv-int8.md"
MiB = 2 ** 20
out = [
 L(D, "LLaMa-7B fp16 model with a maximum length of 2048", 2048, "tokens", neutral=True),
 L(D, "the server requires approximately 1030MB of GPU memory to store kv_cache for each concurrent session", 1.03e9, "memory", comparator="~", model="LLaMa-7B"),
 L(D, "even an A100 80G", 8e10, "memory", neutral=True),
]
# GPU memory table, units in the headers (MiB); batch_size column is a setting
for key, fp16, int8, diff in [
    ("|     8      |", "22337", "18241", "-4096"),
    ("|     16     |", "30593", "22369", "-8224"),
    ("|     32     |", "47073", "30625", "-16448"),
    ("|     48     |", "63553", "38881", "-24672"),
]:
    out.append(L(D, cell(D, key, fp16), int(fp16) * MiB, "memory", model="internlm-chat-7b"))
    out.append(L(D, cell(D, key, int8), int(int8) * MiB, "memory", model="internlm-chat-7b"))
    # the difference column is derived from the two others: fair to extract or to skip
    out.append(L(D, cell(D, key, diff), int(diff) * MiB, "memory", model="internlm-chat-7b", neutral=True))
out += [
 L(D, "memory growth in the 7B model", 7e9, "parameters"),
 L(D, "the fp16 version requires 1030MB of GPU memory for each concurrency", 1.03e9, "memory"),
]
# accuracy table: not labelled (quality scores)
