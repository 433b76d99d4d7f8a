-- Per-accelerator and per-node figures DERIVED from MLPerf Inference results (issue 14).
-- An MLPerf result is the whole system's figure (a# accelerators per node x Nodes); MLCommons
-- publishes no per-accelerator result, and a figure derived from one must never be shown
-- as an official MLPerf result. Each row here is such a derivation, marked role 'derived':
-- the per-system claim it came from (claim_id, with its row: result_id, row_pointer), the
-- divisor and what it counts (divided_by: 'accelerators' or 'nodes'), and value =
-- system_value / divisor (precision likewise). `mixed`: the system holds more than one
-- kind of accelerator (the per-accelerator figure is an average over all of them).
-- The node count is read from the row as the reader rendered it (claims.sentence is the
-- row's line; its `Nodes` column is found by the table header kept in documents.meta).
-- pipeline/derived.py reads this view; nothing else computes a derived figure.
CREATE OR REPLACE VIEW derived_figures AS
WITH result_docs AS (
    SELECT id, path, meta, CAST(json_extract(meta, '$.tables[0].header') AS VARCHAR[]) AS header
    FROM documents
    WHERE json_extract_string(meta, '$.source_kind') IN ('mlperf_summary_json', 'mlperf_summary_csv')
),
result_rows AS (
    SELECT d.id AS doc_id, d.path, d.header, r.value AS row,
           CAST(r.value ->> 'start' AS INTEGER) AS row_start
    FROM result_docs d, json_each(d.meta, '$.rows') r
),
figures AS (
    SELECT c.id AS claim_id, c.doc_id, r.path, c.value AS system_value, c.surface AS system_surface,
           c.precision AS system_precision, c.family, c.unit, c.hardware,
           r.row ->> 'row' AS row_pointer, r.row ->> 'result_id' AS result_id,
           r.row ->> 'version' AS version, r.row ->> 'division' AS division,
           r.row ->> 'model' AS benchmark, r.row ->> 'scenario' AS scenario,
           TRY_CAST(r.row ->> 'hardware_count' AS INTEGER) AS accelerators,
           TRY_CAST(trim(string_split(trim(trim(c.sentence), '|'), ' | ')
                         [list_position(r.header, 'Nodes')]) AS INTEGER) AS nodes,
           coalesce(r.row ->> 'hardware_read', '') LIKE 'mixed%' AS mixed
    FROM claims c
    JOIN result_rows r ON r.doc_id = c.doc_id AND c.sentence_start = r.row_start
    WHERE c.scope = 'per_system' AND c.family IN ('token_throughput', 'request_throughput')
)
SELECT 'derived' AS role, f.claim_id, f.doc_id, f.path, f.row_pointer, f.result_id,
       f.version, f.division, f.benchmark, f.scenario, d.scope, d.divisor, d.divided_by,
       f.system_value / d.divisor AS value, f.system_precision / d.divisor AS precision,
       f.family, f.unit, f.system_value, f.system_surface, f.hardware, f.accelerators, f.nodes, f.mixed
FROM figures f,
     (SELECT 'per_gpu' AS scope, f.accelerators AS divisor, 'accelerators' AS divided_by
      UNION ALL SELECT 'per_node', f.nodes, 'nodes') d
WHERE d.divisor > 0;
