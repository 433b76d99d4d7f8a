-- Who published each cluster's figure first: the earliest dated document holding a claim
-- of the cluster (a primary document wins a tie). Undated documents come last.
CREATE OR REPLACE VIEW first_sources AS
WITH ranked AS (
    SELECT
        k.cluster_id, c.id AS claim_id, c.surface, c.value, c.doc_id,
        d.path, d.title, d.publisher, d.published, d.role, d.url,
        row_number() OVER (
            PARTITION BY k.cluster_id
            ORDER BY d.published ASC NULLS LAST,
                     CASE d.role WHEN 'primary' THEN 0 WHEN 'unknown' THEN 1 ELSE 2 END,
                     c.doc_id, c.start
        ) AS rn
    FROM clusters k
    JOIN claims c ON c.id = k.claim_id
    LEFT JOIN documents d ON d.id = c.doc_id
)
SELECT cluster_id, claim_id, surface, value, doc_id, path, title, publisher, published, role, url
FROM ranked
WHERE rn = 1;
