-- Version 1: the warehouse as the first release wrote it (894f822). Never edited: a
-- change to the schema is a new numbered file beside this one (see README.md here).
-- Used to check an old file's shape before it is migrated, and by the tests to build one.

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

-- One column per field of pipeline.model.Claim (tests/test_store.py keeps them in step).
CREATE TABLE IF NOT EXISTS claims (
    id              VARCHAR PRIMARY KEY,
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
    findings        VARCHAR[]
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

-- Files that could not be ingested in their latest attempt; one line of reason each.
CREATE TABLE IF NOT EXISTS ingest_errors (
    path        VARCHAR NOT NULL,          -- relative to the ingest root, like documents.path
    reason      VARCHAR NOT NULL,
    failed_at   TIMESTAMP NOT NULL
);

INSERT OR IGNORE INTO schema_info VALUES ('version', '1');
