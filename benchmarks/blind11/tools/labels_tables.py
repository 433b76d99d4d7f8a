"""Pipe-table documents: h2ogpt perf.md and bitsandbytes benchmarking/README.md.

Decisions (by hand; the script only walks the rows and applies them):

h2ogpt-perf.md
  - Conditions come only from headings and the row: engine from '## Backend: transformers'
    (-> 'transformers'), model from '### Model: ...', GPU count from the row ('1 x' / '2 x', also
    '### Number of GPUs'), precision from the 'bits' column (dtype '16-bit' / '8-bit' / '4-bit').
  - 'summarization time [sec]' -> latency in seconds (end-to-end time of the summarization task).
  - 'generation speed [tokens/sec]' -> token_throughput; no scope (no denominator in the header).
  - GPU memory inside the GPU name '(49140 MiB)' -> memory, binary MiB, neutral (a hardware spec).
    Its quote ends at the number; the row prefix repeats across tables, so the quote starts as many
    lines earlier as needed to be unique (tools/lib.py rowq).
  - Not labelled: the 'bits' column (setting), OOM cells, the '4096' and '7b' / '13b' in model names.

bitsandbytes-benchmarking.md
  - Hardware from the '####' heading ('NVIDIA T4 16GB' -> 'T4 16GB', no GPU count in the text);
    model from the <summary> line; dtype from the row label (FP16, BF16, NF4, NF4+DQ, INT8,
    INT8+Decomp); batch_size from the 'Batch Size' column; engine is bitsandbytes with the version in
    the column header's <sub> ('bitsandbytes v0.45.0.dev' / 'bitsandbytes v0.44.1').
  - 'Mean Latency (s)' -> latency, statistic mean, seconds. 'Throughput' has no unit in the header;
    the prose above calls it per-token throughput and the cells equal batch / latency, so
    token_throughput (tokens/s), no scope.
  - 'Latency Improvement' and 'Throughput Improvement' -> ratio, baseline 'bitsandbytes v0.44.1',
    direction 'lower' (latency) / 'higher' (throughput). Cells equal to 1.00 / 1.000x -> neutral
    (the FP16/BF16 rows, unchanged between versions; *Silent*: not a baseline cell, but a 1.00 ratio).
  - N/A cells are not labelled.
  - Optimizer tables (training, Qwen3-0.6B, fp32): memory in decimal MB, 'Peak GPU Memory' ->
    statistic peak; the optimizer from the column header goes into `engine` (*Silent*: it is the
    implementation under test); 'GPU Mem Saved vs baseline' -> memory and percent with baseline
    'PyTorch AdamW', direction 'lower'; 'Speed vs baseline' -> ratio with baseline 'PyTorch AdamW'
    (no direction word); the PyTorch AdamW '1.00x' baseline cell and the '—' cells are not labelled;
    PagedAdamW's '1.00x' (measured, equal) is neutral.
"""
import re
from lib import L, text, pipe_cells, rowq, lines_with_offsets

# ---------------------------------------------------------------- h2ogpt
D = 'h2ogpt-perf.md'
t = text(D)
engine = model = None
MIB = 2 ** 20
for off, line in lines_with_offsets(D):
    if line.startswith('## Backend:'):
        engine = line.split(':', 1)[1].strip()
        continue
    if line.startswith('### Model:'):
        model = line.split(':', 1)[1].strip()
        continue
    if not line.startswith('|') or 'bits' in line or line.startswith('|---'):
        continue
    cells = pipe_cells(line)
    bits, gpus, summ, gen = [c[0] for c in cells]
    hw = re.match(r'(\d) x NVIDIA (.*?) \(', gpus)
    hardware = '%s x %s' % (hw.group(1), hw.group(2))
    cond = dict(model=model, hardware=hardware, engine=engine, dtype='%s-bit' % bits)
    mib = re.search(r'\((\d+) MiB\)', gpus).group(1)
    # neutral GPU memory in the name: quote to the end of the next cell (row prefix repeats)
    L(D, rowq(D, off, line.index(' MiB)')), int(mib) * MIB, 'memory', mult=MIB, neutral=True,
      hardware=hardware)
    if summ != 'OOM':
        L(D, rowq(D, off, cells[2][1]), float(summ), 'latency', mult=1, **cond)
        L(D, rowq(D, off, cells[3][1]), float(gen), 'token_throughput', mult=1, **cond)

# ---------------------------------------------------------------- bitsandbytes
D = 'bitsandbytes-benchmarking.md'
t = text(D)
BASE = 'bitsandbytes v0.44.1'
NEW = 'bitsandbytes v0.45.0.dev'
H = dict(higher='higher', lower='lower')

# prose (### Results): ranges keep both ends; quote runs to the upper end
P = dict(baseline=BASE, engine=NEW)
L(D, 'The observed per-token throughput is improved by 60-85', 60, 'percent', high=85, mult=1,
  hardware='Turing/Ampere/Ada', dtype='LLM.int8()', direction='higher', **P)
L(D, 'while latency is decreased by 40-45', 40, 'percent', high=45, mult=1,
  hardware='Turing/Ampere/Ada', dtype='LLM.int8()', direction='lower', **P)
L(D, 'With batch size of 1, per-token throughput is _improved by 10-25', 10, 'percent', high=25,
  mult=1, hardware='Turing/Ampere/Ada', dtype='NF4/FP4', batch_size=1, direction='higher', **P)
L(D, 'per-token latency is _decreased by 10-20', 10, 'percent', high=20, mult=1,
  hardware='Turing/Ampere/Ada', dtype='NF4/FP4', batch_size=1, direction='lower', **P)
L(D, 'per-token throughput is _improved by up to 28', 28, 'percent', mult=1, comparator='<=',
  hardware='H100', dtype='NF4/FP4', direction='higher', **P)
L(D, 'per-token latency is _decreased by up to 22', 22, 'percent', mult=1, comparator='<=',
  hardware='H100', dtype='NF4/FP4', direction='lower', **P)
# not labelled: 'v0.45.0', 'v0.44.1', 'Llama 3.1 70B' (name), 'batch size >= 8' (a setting threshold)

# GPU memory in the hardware headings: neutral
for h, gb in [('#### NVIDIA T4 16GB', 16), ('#### NVIDIA RTX 4090 24GB', 24),
              ('#### NVIDIA H100 80GB', 80), ('### NVIDIA A100 80GB', 80)]:
    L(D, h, gb * 1e9, 'memory', mult=1e9, neutral=True)

# inference tables
hardware = model = None
header = None
lines = list(lines_with_offsets(D))
for off, line in lines:
    m = re.match(r'#### NVIDIA (.*)', line)
    if m and 'GB' in line:
        hardware = m.group(1)
        continue
    m = re.match(r'<summary>(.*)</summary>', line)
    if m:
        model = m.group(1)
        continue
    if line.startswith('## 8-bit Optimizers'):
        break
    if not line.startswith('|') or line.startswith('|--'):
        continue
    cells = pipe_cells(line)
    if 'Batch Size' in line:
        header = [c[0] for c in cells]
        continue
    dtype = cells[0][0]
    bs = int(cells[1][0])
    for (val, end), head in list(zip(cells, header))[2:]:
        if val == 'N/A':
            continue
        q = rowq(D, off, end)
        cond = dict(model=model, hardware=hardware, batch_size=bs, dtype=dtype)
        ver = NEW if 'v0.45.0.dev' in head else BASE
        if head.startswith('Mean Latency'):
            L(D, q, float(val), 'latency', mult=1, statistic='mean', engine=ver, **cond)
        elif head.startswith('Throughput <sub>'):
            L(D, q, float(val), 'token_throughput', mult=1, engine=ver, **cond)
        elif head == 'Latency Improvement':
            v = float(val)
            L(D, q, v, 'ratio', mult=1, engine=NEW, baseline=BASE, direction='lower',
              neutral=(v == 1.0), **cond)
        elif head == 'Throughput Improvement':
            v = float(val.rstrip('x'))
            L(D, q, v, 'ratio', mult=1, engine=NEW, baseline=BASE, direction='higher',
              neutral=(v == 1.0), **cond)
        else:
            raise ValueError(head)

# optimizer tables
OPT_MODEL = 'Qwen3-0.6B'
section = None
start = [i for i, (o, l) in enumerate(lines) if l == '## 8-bit Optimizers'][0]
for off, line in lines[start:]:
    m = re.match(r'### (.*)', line)
    if m:
        section = m.group(1)
        continue
    if not line.startswith('|') or line.startswith('|--'):
        continue
    cells = pipe_cells(line)
    if cells[0][0] == 'Metric':
        header = [c[0] for c in cells]
        continue
    metric = cells[0][0].strip('*')
    hw = {'NVIDIA A100 80GB': 'A100 80GB'}.get(section, section)
    for i, ((val, end), opt) in enumerate(list(zip(cells, header))[1:], start=1):
        if val == '—':
            continue
        cond = dict(model=OPT_MODEL, hardware=hw, engine=opt, dtype='fp32')
        q = rowq(D, off, end)
        if metric.startswith('Speed vs baseline'):
            v = float(val.rstrip('x'))
            if i == 1:
                continue  # the baseline column's 1.00x
            L(D, q, v, 'ratio', mult=1, baseline='PyTorch AdamW', neutral=(v == 1.0), **cond)
        elif 'Saved vs baseline' in metric:
            mm = re.match(r'\*\*([\d.]+) MB \(([\d.]+)%\)\*\*', val)
            mb, pc = mm.group(1), mm.group(2)
            qm = rowq(D, off, end - len(val) + 2 + len(mb) + 3)
            L(D, qm, float(mb) * 1e6, 'memory', mult=1e6, baseline='PyTorch AdamW',
              direction='lower', **cond)
            L(D, q, float(pc), 'percent', mult=1, fig=pc, baseline='PyTorch AdamW',
              direction='lower', **cond)
        else:
            mb = val.split()[0]
            kw = {'statistic': 'peak'} if metric.startswith('Peak') else {}
            L(D, q, float(mb) * 1e6, 'memory', mult=1e6, **kw, **cond)
