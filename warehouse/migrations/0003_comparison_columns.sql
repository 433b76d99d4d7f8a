-- Version 3 (aa65651): a ratio or percent keeps what it compares with (baseline, direction,
-- measures) and a figure its offered load. Old claims gain them empty; they are extracted
-- again on the next ingest, since the extractor version is in each document's fingerprint.
ALTER TABLE claims ADD COLUMN IF NOT EXISTS baseline VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS direction VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS measures VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS offered_load DOUBLE;
