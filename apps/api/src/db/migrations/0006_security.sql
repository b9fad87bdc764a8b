-- Rate-limit counters shared by every API process (issue 8). One row per limit key holds
-- the count of the current fixed window; it is taken with one atomic
-- INSERT … ON CONFLICT … RETURNING before the limited work runs, so a burst of parallel
-- requests cannot all see the same old count.
CREATE TABLE rate_limit_counters (
  key text PRIMARY KEY,
  count integer NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_counters_reset_at_idx ON rate_limit_counters (reset_at);
