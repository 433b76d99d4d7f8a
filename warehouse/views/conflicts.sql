-- Pairs of claims on the same quantity whose values disagree beyond their precision,
-- including operating-point conflicts the documents never state. One row per link, with
-- each side's document (id, display path, title, publisher, role, date).
CREATE OR REPLACE VIEW conflicts AS
SELECT
    l.src, l.dst, l.detail,
    a.model, a.family,
    a.doc_id AS src_doc, da.path AS src_path, da.title AS src_title,
    da.publisher AS src_publisher, da.role AS src_role, da.published AS src_published,
    a.surface AS src_surface, a.value AS src_value, a.scope AS src_scope,
    a.hardware AS src_hardware, a.engine AS src_engine, a.sentence AS src_sentence,
    b.doc_id AS dst_doc, db.path AS dst_path, db.title AS dst_title,
    db.publisher AS dst_publisher, db.role AS dst_role, db.published AS dst_published,
    b.surface AS dst_surface, b.value AS dst_value, b.scope AS dst_scope,
    b.hardware AS dst_hardware, b.engine AS dst_engine, b.sentence AS dst_sentence
FROM links l
JOIN claims a ON a.id = l.src
JOIN claims b ON b.id = l.dst
LEFT JOIN documents da ON da.id = a.doc_id
LEFT JOIN documents db ON db.id = b.doc_id
WHERE l.relation = 'conflicts';
