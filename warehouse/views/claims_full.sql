-- Every claim with the document it comes from, so no question needs a join: the display
-- path, title, publisher, role (and where the role came from), publication date and URL.
CREATE OR REPLACE VIEW claims_full AS
SELECT
    c.*,
    d.path AS doc_path, d.title AS doc_title, d.publisher AS doc_publisher,
    d.role AS doc_role, d.role_source AS doc_role_source, d.published AS doc_published,
    d.url AS doc_url
FROM claims c
LEFT JOIN documents d ON d.id = c.doc_id;
