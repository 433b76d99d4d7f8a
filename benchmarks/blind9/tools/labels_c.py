"""optimum-neuron-llama3.3-70b.mdx (huggingface/optimum-neuron benchmark page): a benchmark page whose
results are only in charts. Its text has no performance figure: a configuration table (batch_size,
sequence_length), model names with sizes (one misnamed 'Llama-3.3-8b'), device and core counts, unit
statements ('expressed in **seconds**'), a licence header with a year. Hand-written label decisions."""
from lib import L, col
D = "optimum-neuron-llama3.3-70b.mdx"
out = []
# Title 'Llama-3.3-70b', the question 'How fast is Llama-3.3-8b' and the image alt texts
# ('Llama3.3 70b inferentia2 TTFT'): model names -> not labelled.
# Configuration table: 'Model type' cells name the model with its size -> neutral parameters (the
# convention of the earlier sets for model-size columns); batch_size -> not labelled (a setting);
# sequence_length 4096 -> neutral tokens (a compiled context length: a setting).
for bs in ("1 ", "4 ", "8 ", "16", "32", "48"):
    key = "| Llama3.3 70b BS" + bs
    out.append(L(D, key.rstrip()[: len("| Llama3.3 70b")], 70e9, "parameters", neutral=True))
    out.append(L(D, col(D, key, 3), 4096, "tokens", neutral=True))
# '12 devices corresponding to 24 cores', 'inf2.48xlarge': counts and an instance name -> not labelled.
# Apache licence header (2024, 2.0): not labelled.
