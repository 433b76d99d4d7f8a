-- One row per cluster (connected claims over supports/restates/conflicts/mismatch):
-- how many claims and documents, the value range, and whether it holds a conflict.
CREATE OR REPLACE VIEW claim_clusters AS
WITH members AS (
    SELECT k.cluster_id, c.*, d.role AS doc_role
    FROM clusters k
    JOIN claims c ON c.id = k.claim_id
    LEFT JOIN documents d ON d.id = c.doc_id
),
conflicted AS (
    SELECT DISTINCT k.cluster_id
    FROM clusters k JOIN links l ON l.src = k.claim_id AND l.relation = 'conflicts'
)
SELECT
    m.cluster_id,
    count(*) AS n_claims,
    count(DISTINCT m.doc_id) AS n_documents,
    count(DISTINCT m.doc_id) FILTER (WHERE m.doc_role = 'primary') AS n_primary_documents,
    min(m.value) AS min_value,
    max(m.value) AS max_value,
    list(DISTINCT m.family ORDER BY m.family) AS families,
    list(DISTINCT m.model ORDER BY m.model) FILTER (WHERE m.model IS NOT NULL) AS models,
    (m.cluster_id IN (SELECT cluster_id FROM conflicted)) AS has_conflict,
    list(m.id ORDER BY m.id) AS claim_ids
FROM members m
GROUP BY m.cluster_id;
