-- Version 5: a failed file or address is kept by where it was read (its source, as in
-- locations), not by its display path, so a README.md failing in one folder and stored
-- from another are two rows. Rows from before keep source NULL and are matched by path.
ALTER TABLE ingest_errors ADD COLUMN IF NOT EXISTS source VARCHAR;
