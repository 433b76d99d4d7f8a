-- Ratio and percent claims checked against the two figures they are computed from:
-- src is the ratio claim, dst the numerator a, other the denominator b. Each claim's
-- document is named by id, display path and title.
CREATE OR REPLACE VIEW derived_checks AS
SELECT
    l.src AS claim_id, r.doc_id, d.path, d.title, r.surface, r.comparator, r.value AS stated,
    l.computed, l.consistent,
    l.dst AS operand_a, a.surface AS a_surface, a.value AS a_value, a.doc_id AS a_doc,
    da.path AS a_path, da.title AS a_title,
    l.other AS operand_b, b.surface AS b_surface, b.value AS b_value, b.doc_id AS b_doc,
    dbb.path AS b_path, dbb.title AS b_title,
    (a.doc_id = r.doc_id AND b.doc_id = r.doc_id) AS same_document,
    l.detail, r.sentence
FROM links l
JOIN claims r ON r.id = l.src
LEFT JOIN claims a ON a.id = l.dst
LEFT JOIN claims b ON b.id = l.other
LEFT JOIN documents d ON d.id = r.doc_id
LEFT JOIN documents da ON da.id = a.doc_id
LEFT JOIN documents dbb ON dbb.id = b.doc_id
WHERE l.relation = 'derives';
