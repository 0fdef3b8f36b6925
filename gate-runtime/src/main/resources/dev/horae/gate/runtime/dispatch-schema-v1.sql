-- Horae gate: the durable dispatcher's tables on PostgreSQL (gate specification §12.4, §12.5.6).
-- Version 1. A released version never changes: migrate() records the SHA-256 of this text
-- (with the ${prefix} placeholder unreplaced) and refuses a database that recorded another.
CREATE TABLE IF NOT EXISTS ${prefix}dispatch (
  run_id text PRIMARY KEY,
  thread_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'awaiting')),
  owner text,
  epoch bigint NOT NULL CHECK (epoch >= 0),
  lease_expires_ms bigint,
  attempt_count integer NOT NULL CHECK (attempt_count >= 0),
  available_at_ms bigint NOT NULL,
  activation jsonb,
  cancel_requested boolean NOT NULL,
  woken_while_running boolean NOT NULL,
  created_at_ms bigint NOT NULL,
  CHECK ((status = 'running') = (owner IS NOT NULL) AND (owner IS NULL) = (lease_expires_ms IS NULL))
);
CREATE INDEX IF NOT EXISTS ${prefix}dispatch_claimable ON ${prefix}dispatch (status, available_at_ms);
CREATE TABLE IF NOT EXISTS ${prefix}resume_inbox (
  id bigserial PRIMARY KEY,
  run_id text NOT NULL,
  correlation_id text NOT NULL,
  command jsonb NOT NULL,
  created_at_ms bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}resume_inbox_run ON ${prefix}resume_inbox (run_id, id);
