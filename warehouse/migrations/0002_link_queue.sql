-- Version 2 (e1ee822): incremental linking. Each claim's quantity key and subject, and the
-- queue of what changed since the last link. A warehouse migrated here has claims but no
-- keys: the next link is a full one (Store.needs_full_link sees claims without keys).
-- IF NOT EXISTS: files of that release already said version 1 while holding these tables.
CREATE TABLE IF NOT EXISTS claim_keys (
    claim_id    VARCHAR NOT NULL,
    doc_id      VARCHAR NOT NULL,
    qkey        VARCHAR NOT NULL,
    subject     VARCHAR
);

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
