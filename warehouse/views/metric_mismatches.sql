-- Same subject and a consistent number, but a different family, scope or unit: the
-- metric drifted between sources (per user vs per GPU, context length vs throughput).
-- Each side's document is named by id, display path and title.
CREATE OR REPLACE VIEW metric_mismatches AS
SELECT
    l.src, l.dst, l.detail, a.model,
    a.doc_id AS src_doc, da.path AS src_path, da.title AS src_title, da.role AS src_role,
    a.surface AS src_surface, a.value AS src_value, a.family AS src_family,
    a.scope AS src_scope, a.unit AS src_unit,
    b.doc_id AS dst_doc, db.path AS dst_path, db.title AS dst_title, db.role AS dst_role,
    b.surface AS dst_surface, b.value AS dst_value, b.family AS dst_family,
    b.scope AS dst_scope, b.unit AS dst_unit
FROM links l
JOIN claims a ON a.id = l.src
JOIN claims b ON b.id = l.dst
LEFT JOIN documents da ON da.id = a.doc_id
LEFT JOIN documents db ON db.id = b.doc_id
WHERE l.relation = 'mismatch';
