"""Prose and code-block (console / aligned plain-text) documents. One L(...) per mention, typed by hand,
except the console blocks, where a map from the section heading to its conditions is applied to each
'Name (unit):   value' line."""
import re
from lib import L, text, rowq, lines_with_offsets

# ====================================================================== TensorRT-LLM DeepSeek-R1
D = 'trtllm-best-perf-deepseek-r1.md'
E = 'TensorRT-LLM'
L(D, 'can achieve over 250 tokens per second per user', 250, 'token_throughput', mult=1,
  scope='per_user', comparator='>', model='DeepSeek-R1', hardware='8 x Blackwell', engine=E)
# 'maximum throughput' is the operating point, not a statistic; system-level denominator is a
# judgement call (a single DGX system) -> no scope
L(D, 'a maximum throughput of over 30,000 tokens per second', 30000, 'token_throughput', mult=1,
  comparator='>', model='DeepSeek-R1', hardware='8 x Blackwell', engine=E)
L(D, 'the massive, state-of-the-art 671 billion parameter', 671e9, 'parameters', mult=1e9,
  model='DeepSeek-R1')
# GTC 2025: date. '"90-real;100-real"': build flags.
L(D, "for B200 min-latency scenarios it's about 8 TPS/USER", 8, 'token_throughput', mult=1,
  scope='per_user', comparator='~', hardware='B200', engine=E, model='DeepSeek-R1',
  baseline='without the boost-slider clock setting', direction='higher')

# settings in prose: neutral tokens (ISL / OSL); Batch = ..., num_requests = ... not labelled
for q in ['### B200 min-latency\nOur benchmark results are based on **Batch = 1, ISL = 1K',
          '### B200 min-latency\nOur benchmark results are based on **Batch = 1, ISL = 1K, OSL = 2K',
          'Our official benchmark dataset has ISL = 1K',
          'Our official benchmark dataset has ISL = 1K, OSL = 2K',
          '**Batch = 3072, ISL = 1K',
          '**Batch = 3072, ISL = 1K, OSL = 2K',
          '### H200 min-latency\nOur benchmark results are based on **Batch = 1, ISL = 1K',
          '### H200 min-latency\nOur benchmark results are based on **Batch = 1, ISL = 1K, OSL = 2K',
          '**Batch = 1024, ISL = 1K',
          '**Batch = 1024, ISL = 1K, OSL = 2K']:
    v = 1000 if q.endswith('1K') else 2000
    L(D, q, v, 'tokens', mult=1000, neutral=True)

# console blocks: conditions per section (model from the trtllm-bench command, GPU count from --tp 8,
# batch / ISL / OSL from the sentence under the heading, concurrency from the command)
SECT = {
    '### B200 min-latency': dict(model='DeepSeek-R1-FP4', hardware='8 x B200', batch_size=1,
                                 isl=1000, osl=2000, concurrency=1, dtype='FP4'),
    '### B200 max-throughput for R1-0528 with FP8 KV cache': dict(
        model='DeepSeek-R1-0528-FP4', hardware='8 x B200', concurrency=7168,
        dtype='FP4, FP8 KV cache'),
    '### B200 max-throughput for R1 with FP16 KV cache': dict(
        model='DeepSeek-R1-FP4', hardware='8 x B200', batch_size=3072, isl=1000, osl=2000,
        concurrency=3072, dtype='FP4, FP16 KV cache'),
    '### H200 min-latency': dict(model='DeepSeek-R1', hardware='8 x H200', batch_size=1, isl=1000,
                                 osl=2000, concurrency=1, dtype='FP8'),
    '### H200 max-throughput': dict(model='DeepSeek-R1', hardware='8 x H200', batch_size=1024,
                                    isl=1000, osl=2000, concurrency=1024, dtype='FP8'),
}
cond = None
CON = re.compile(r'^(.*?):\s+([\d.]+)$')
for off, line in lines_with_offsets(D):
    if line.startswith('### '):
        cond = SECT.get(line.strip())
        continue
    m = CON.match(line)
    if not m or cond is None or '(' not in line:
        continue
    name, val = m.group(1), m.group(2)
    q = rowq(D, off, len(line))
    v = float(val)
    kw = dict(engine=E, **cond)
    if name.startswith('Request Throughput'):
        L(D, q, v, 'request_throughput', mult=1, **kw)
    elif name.startswith('Total Output Throughput') or name.startswith('Total Token Throughput'):
        L(D, q, v, 'token_throughput', mult=1, scope='aggregate', **kw)
    elif name.startswith('Per User'):
        L(D, q, v, 'token_throughput', mult=1, scope='per_user', **kw)
    elif name.startswith('Per GPU'):
        L(D, q, v, 'token_throughput', mult=1, scope='per_gpu', **kw)
    elif name.startswith('Total Latency'):
        # the run's wall time: a measurement window -> neutral
        L(D, q, round(v / 1000, 10), 'latency', mult=1e-3, neutral=True, **kw)
    elif name.startswith('Average request latency'):
        L(D, q, round(v / 1000, 10), 'latency', mult=1e-3, statistic='mean', **kw)
    else:
        raise ValueError(line)

# ====================================================================== SkyPilot serving benchmark
D = 'skypilot-serving-benchmark.md'
C = dict(model='Gemma', engine='vLLM')
t = text(D)
# two identical result blocks (under 'How Sky Benchmark works' and under step 3): each is labelled
for block_start in [m.start() for m in re.finditer(r'   RESOURCES  #QUERIES', t)]:
    blk = t[block_start:t.index('```', block_start)]
    for row in blk.split('\n')[1:]:
        m = re.match(r'\s+1x (\w+):1\s+50\s+([\d.]+)\s+([\d.]+)', row)
        if not m:
            continue
        off = block_start + blk.index(row)
        hw = '1 x ' + m.group(1)
        sec, usd = m.group(2), m.group(3)
        L(D, rowq(D, off, row.index(sec) + len(sec)), float(sec), 'latency', mult=1,
          statistic='mean', hardware=hw, **C)
        L(D, rowq(D, off, row.index(usd) + len(usd)), float(usd), 'money', mult=1,
          statistic='mean', hardware=hw, **C)
        # '#QUERIES' 50: count of requests in the run, no family -> not labelled
# instance table: PRICE ($/hr) -> money; Mem(GB) -> instance memory, neutral; vCPUs / # NODES no
for name, acc, mem, price in [('sky-bench-gemma-0', 'T4', '16', '0.53'),
                              ('sky-bench-gemma-1', 'L4', '16', '0.80'),
                              ('sky-bench-gemma-2', 'V100', '61', '3.06')]:
    row_off = t.index('    ' + name)
    row = t[row_off:t.index('\n', row_off)]
    mpos = row.index('       ' + mem + ' ') + 7 + len(mem)
    L(D, t[row_off:row_off + mpos], int(mem) * 1e9, 'memory', mult=1e9, neutral=True,
      hardware='1 x ' + acc)
    L(D, row, float(price), 'money', mult=1, hardware='1 x ' + acc)
L(D, 'V100s are 2.3x', 2.3, 'ratio', mult=1, hardware='V100', baseline='T4', direction='higher',
  **C)
L(D, 'V100s are 2.3x faster but also cost 2.5x', 2.5, 'ratio', mult=1, hardware='V100',
  baseline='T4', direction='higher', **C)
# not labelled: 'batch size of 5 queries per batch', 'a batch of 5 queries' (settings, counts),
# '#L9-L12' / '#L22-L29' (URL anchors), 'S3'

# ====================================================================== vLLM PTPC-FP8 blog post
D = 'vllm-blog-ptpc-fp8-rocm.md'
L(D, 'Our tests show up to 2.5', 2.5, 'ratio', mult=1, comparator='<=', hardware='MI300X',
  dtype='PTPC-FP8', baseline='naive 2-step implementation', direction='higher')
L(D, '1.01x improvement', 1.01, 'ratio', mult=1, model='Llama-3.1-70B-Instruct',
  hardware='1x MI300X', engine='vLLM', dtype='PTPC-FP8', baseline='per-tensor FP8',
  direction='higher')
# model-size labels used as names of the two models: neutral parameters
L(D, '**8B Model Results', 8e9, 'parameters', mult=1e9, neutral=True,
  model='Llama-3.1-8B-Instruct')
L(D, '**70B Model Results', 70e9, 'parameters', mult=1e9, neutral=True,
  model='Llama-3.1-70B-Instruct')
L(D, 'For the larger 70B', 70e9, 'parameters', mult=1e9, neutral=True,
  model='Llama-3.1-70B-Instruct')
L(D, '(8B Model', 8e9, 'parameters', mult=1e9, neutral=True, model='Llama-3.1-8B-Instruct')
L(D, '(8B Model - adjust for 70B', 70e9, 'parameters', mult=1e9, neutral=True,
  model='Llama-3.1-70B-Instruct')
# not labelled: perplexity, '% Degradation', accuracy and '% of BF16 Performance' (quality, not
# performance), '(even 0.1)', v0.7.3, the commit hash, widths, '2× MI300X' (condition), '8-bit',
# every command-line value (16384, 1024, 2048, 0.6, 16, 5, 250, 15)

# ====================================================================== distributed-llama README
D = 'distributed-llama-readme.md'
for model, size in [('Llama 3.1 8B Instruct Q40', '6.32'), ('Llama 3.1 405B Instruct Q40', '238'),
                    ('Llama 3.2 1B Instruct Q40', '1.7'), ('Llama 3.2 3B Instruct Q40', '3.4'),
                    ('Llama 3.3 70B Instruct Q40', '40'),
                    ('DeepSeek R1 Distill Llama 8B Q40', '6.32'), ('Qwen 3 0.6B Q40', '0.9'),
                    ('Qwen 3 1.7B Q40', '2.2'), ('Qwen 3 8B Q40', '6.7'),
                    ('Qwen 3 14B Q40', '10.9')]:
    t = text(D)
    off = t.index('| ' + model + ' ')
    row = t[off:t.index('\n', off)]
    end = row.index(' ' + size + ' GB') + 1 + len(size)
    L(D, row[:end], float(size) * 1e9, 'memory', mult=1e9, model=model, dtype='Q40')
# the news line: model sizes used as names of the supported Qwen 3 models -> neutral parameters
for q, v in [('Qwen 3 0.6B', 0.6e9), ('Qwen 3 0.6B, 1.7B', 1.7e9), ('Qwen 3 0.6B, 1.7B, 8B', 8e9),
             ('Qwen 3 0.6B, 1.7B, 8B and 14B', 14e9)]:
    L(D, '- 3 Aug 2025 - ' + q, v, 'parameters', neutral=True)
L(D, 'Llama 3.3 70B on 4 x Mac Mini M4 Pro 24GB', 24e9, 'memory', mult=1e9, neutral=True,
  hardware='4 x Mac Mini M4 Pro')
# not labelled: dates, v0.13.0 / v0.12.0, 'Llama 3.1 405B' in a title, '2^n', '1, 2, 4...', '#70',
# '#183', example argument values (4096, 4, 9999, 256, 16), IP addresses, '64 bit', 'Python 3'
