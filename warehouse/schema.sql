-- claims warehouse: tables only (views live in views/, one file each), at the latest schema
-- version: a new warehouse is created from this file and gets that version in schema_info;
-- an older one is brought to the same shape by migrations/ (see migrations/README.md).
-- Applied by pipeline/store.py on every write connection; every statement is idempotent.
-- "end" is a reserved word in SQL: quote it in queries (c."end").

CREATE TABLE IF NOT EXISTS schema_info (
    key         VARCHAR PRIMARY KEY,
    value       VARCHAR
);

-- One row per ingested file. id is the content hash of the file's bytes; text is the exact
-- text every offset in pages and claims points into.
CREATE TABLE IF NOT EXISTS documents (
    id          VARCHAR PRIMARY KEY,
    path        VARCHAR NOT NULL,          -- relative to the ingest root, POSIX
    format      VARCHAR NOT NULL CHECK (format IN ('text', 'markdown', 'html', 'pdf')),
    title       VARCHAR,
    publisher   VARCHAR,
    url         VARCHAR,
    published   DATE,
    author      VARCHAR,
    role        VARCHAR NOT NULL DEFAULT 'unknown'
                CHECK (role IN ('primary', 'secondary', 'unknown')),
    role_source VARCHAR CHECK (role_source IN ('manifest', 'metadata', 'inferred')),
    n_chars     INTEGER NOT NULL,
    n_bytes     BIGINT,
    text        VARCHAR NOT NULL,
    meta        JSON,                      -- encoding, front matter, PDF info, ...
    fingerprint VARCHAR NOT NULL,          -- content hash + overrides + pipeline versions
    ingested_at TIMESTAMP NOT NULL
);

-- PDF pages: documents.text[start:end] came from page `page` (1-based).
CREATE TABLE IF NOT EXISTS pages (
    doc_id      VARCHAR NOT NULL,
    page        INTEGER NOT NULL,
    start       INTEGER NOT NULL,
    "end"       INTEGER NOT NULL,
    PRIMARY KEY (doc_id, page)
);

-- One column per field of pipeline.model.Claim, then one per fact of pipeline.link.facts
-- (tests/test_store.py keeps them in step).
-- id is unique (a hash of document id and span; Store.write refuses duplicates) but is
-- deliberately not a PRIMARY KEY: DuckDB rewrites a LIST column (findings) on an indexed
-- table row by row through the index, which made linking 100k claims ~40x slower.
CREATE TABLE IF NOT EXISTS claims (
    id              VARCHAR NOT NULL,
    doc_id          VARCHAR NOT NULL,
    start           INTEGER NOT NULL,
    "end"           INTEGER NOT NULL,
    surface         VARCHAR NOT NULL,
    value           DOUBLE,
    family          VARCHAR NOT NULL,
    unit            VARCHAR,
    value_text      VARCHAR,
    unit_text       VARCHAR,
    low             DOUBLE,
    high            DOUBLE,
    comparator      VARCHAR,
    precision       DOUBLE,
    scope           VARCHAR,
    statistic       VARCHAR,
    phase           VARCHAR,
    token_kind      VARCHAR,
    per_basis       VARCHAR,
    page            INTEGER,
    sentence_start  INTEGER,
    sentence_end    INTEGER,
    sentence        VARCHAR,
    model           VARCHAR,
    model_params    DOUBLE,
    hardware        VARCHAR,
    hw_count        INTEGER,
    accelerator     VARCHAR,
    engine          VARCHAR,
    dtype           VARCHAR,
    technique       VARCHAR,
    parallelism     VARCHAR,
    concurrency     DOUBLE,
    batch_size      DOUBLE,
    isl             DOUBLE,
    osl             DOUBLE,
    workload        VARCHAR,
    price_basis     VARCHAR,
    asserted_by     VARCHAR,
    stance          VARCHAR,
    implied         BOOLEAN,
    inherited       BOOLEAN,
    in_table        BOOLEAN,
    baseline        VARCHAR,
    direction       VARCHAR,
    measures        VARCHAR,
    offered_load    DOUBLE,
    findings        VARCHAR[],
    -- what every comparison reads of the claim, computed once when it is stored
    -- (pipeline/link/facts.py; docs/checking.md, "Stored facts")
    key_unit        VARCHAR,
    key_scope       VARCHAR,
    key_model       VARCHAR,
    key_hw_count    INTEGER,
    key_hw          VARCHAR,
    key_engine      VARCHAR,
    key_statistic   VARCHAR,
    key_phase       VARCHAR,
    key_token_kind  VARCHAR,
    fig_p           DOUBLE,
    witness_lo      DOUBLE,
    witness_hi      DOUBLE,
    witness_top     DOUBLE,
    full_lo         DOUBLE,
    full_hi         DOUBLE,
    full_top        DOUBLE
);

-- One column per field of pipeline.model.Link.
CREATE TABLE IF NOT EXISTS links (
    src         VARCHAR NOT NULL,
    dst         VARCHAR NOT NULL,
    relation    VARCHAR NOT NULL,
    consistent  BOOLEAN,
    detail      VARCHAR,
    computed    DOUBLE,
    other       VARCHAR
);

CREATE TABLE IF NOT EXISTS clusters (
    cluster_id  VARCHAR NOT NULL,
    claim_id    VARCHAR NOT NULL
);

-- Quantity key and blocking subject of every claim (pipeline.link.keys), written with the
-- claims, so that linking after an ingest loads only the claims of the subjects it touches.
CREATE TABLE IF NOT EXISTS claim_keys (
    claim_id    VARCHAR NOT NULL,
    doc_id      VARCHAR NOT NULL,
    qkey        VARCHAR NOT NULL,
    subject     VARCHAR                    -- NULL: the claim names no model or hardware
);

-- What changed since the last link, written in the same transaction as the change:
-- 'added' documents, 'removed' documents (with the names attribution matches on) and the
-- quantity keys ('key') of their removed claims; 'full' when removed claims had no keys.
-- The next link (`claims ingest` without --no-link, or `claims link`) clears it.
CREATE TABLE IF NOT EXISTS link_pending (
    change      VARCHAR NOT NULL CHECK (change IN ('added', 'removed', 'key', 'full')),
    doc_id      VARCHAR,
    qkey        VARCHAR,
    path        VARCHAR,
    publisher   VARCHAR,
    title       VARCHAR,
    author      VARCHAR,
    url         VARCHAR
);

-- Files that could not be ingested in their latest attempt; one line of reason each, one
-- row per source (the resolved file path or the address, as in locations; NULL for rows
-- written before version 5, which are matched by path).
CREATE TABLE IF NOT EXISTS ingest_errors (
    path        VARCHAR NOT NULL,          -- relative to the ingest root, like documents.path
    reason      VARCHAR NOT NULL,
    failed_at   TIMESTAMP NOT NULL,
    source      VARCHAR
);

-- Where each document was read from (issue 15). A document is its bytes (documents.id);
-- a source is where they were read: the resolved absolute file path, or the web address.
-- One row per source, naming the document its latest ingest stored or matched, so the same
-- bytes from two sources are stored once with both sources kept, a changed source
-- replaces only its own earlier version, and two folders' README.md stay two documents.
-- path is the display path the source was ingested under (documents.path is the first).
CREATE TABLE IF NOT EXISTS locations (
    source      VARCHAR NOT NULL,
    doc_id      VARCHAR NOT NULL,
    path        VARCHAR NOT NULL,
    seen_at     TIMESTAMP NOT NULL
);
