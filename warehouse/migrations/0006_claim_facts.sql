-- Version 6: what every comparison reads of a claim (its comparison keys and the intervals
-- its number stands for), computed once per claim by pipeline/link/facts.py and stored
-- with it. The columns are added here; pipeline/migrate.py fills them for the claims
-- already stored (a step in Python, after this file, in the same transaction).
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_unit VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_scope VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_model VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_hw_count INTEGER;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_hw VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_engine VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_statistic VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_phase VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS key_token_kind VARCHAR;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS fig_p DOUBLE;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS witness_lo DOUBLE;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS witness_hi DOUBLE;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS witness_top DOUBLE;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS full_lo DOUBLE;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS full_hi DOUBLE;
ALTER TABLE claims ADD COLUMN IF NOT EXISTS full_top DOUBLE;
