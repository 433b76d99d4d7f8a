-- Every claim with the document it comes from, so no question needs a join: the display
-- path, title, publisher, role (and where the role came from), publication date and URL.
CREATE OR REPLACE VIEW claims_full AS
SELECT
    c.* EXCLUDE (key_unit, key_scope, key_model, key_hw_count, key_hw, key_engine,
              key_statistic, key_phase, key_token_kind, fig_p, witness_lo, witness_hi,
              witness_top, full_lo, full_hi, full_top),   -- the stored facts: not for export
    d.path AS doc_path, d.title AS doc_title, d.publisher AS doc_publisher,
    d.role AS doc_role, d.role_source AS doc_role_source, d.published AS doc_published,
    d.url AS doc_url
FROM claims c
LEFT JOIN documents d ON d.id = c.doc_id;
