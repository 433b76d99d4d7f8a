-- Every claim with the document it comes from, so no question needs a join: the display
-- path, title, publisher, role (and where the role came from), publication date and URL.
-- The claims' stored facts (pipeline/link/facts.py: the checker's comparison keys and
-- intervals) are left out: they are no part of what a claim says. (A lambda, not
-- EXCLUDE: DuckDB keeps an EXCLUDE list in no fixed order, and a reader compares the
-- stored SQL of each view with the shipped one.)
CREATE OR REPLACE VIEW claims_full AS
SELECT
    c.*,
    d.path AS doc_path, d.title AS doc_title, d.publisher AS doc_publisher,
    d.role AS doc_role, d.role_source AS doc_role_source, d.published AS doc_published,
    d.url AS doc_url
FROM (SELECT COLUMNS(lambda n: n NOT IN (
          'key_unit', 'key_scope', 'key_model', 'key_hw_count', 'key_hw', 'key_engine',
          'key_statistic', 'key_phase', 'key_token_kind', 'fig_p', 'witness_lo', 'witness_hi',
          'witness_top', 'full_lo', 'full_hi', 'full_top'))
      FROM claims) c
LEFT JOIN documents d ON d.id = c.doc_id;
