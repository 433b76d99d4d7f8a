-- Version 4 (b1c7dd7): where each document was read from (identity by content and source).
-- A document stored before this has no row: the next ingest of its folder finds it by its
-- display path once and records its source (store._Known).
CREATE TABLE IF NOT EXISTS locations (
    source      VARCHAR NOT NULL,
    doc_id      VARCHAR NOT NULL,
    path        VARCHAR NOT NULL,
    seen_at     TIMESTAMP NOT NULL
);
