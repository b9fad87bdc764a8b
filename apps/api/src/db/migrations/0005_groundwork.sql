-- Idempotency keys expire: the periodic cleanup deletes rows older than the retention period,
-- oldest first, so it reads them through this index instead of scanning the table.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
