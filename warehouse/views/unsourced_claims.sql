-- Secondary claims that no primary claim supports or restates (docs/claims-model.md §3), with their
-- document's display path, title, publisher, role, date and URL.
CREATE OR REPLACE VIEW unsourced_claims AS
SELECT
    c.id, c.doc_id, d.title, d.publisher, d.published, d.path,
    c.surface, c.value, c.comparator, c.family, c.unit, c.scope, c.model, c.hardware,
    c.engine, c.asserted_by, c.stance, c.sentence, c.findings, d.role, d.url
FROM claims c
LEFT JOIN documents d ON d.id = c.doc_id
WHERE list_contains(c.findings, 'unsourced');
