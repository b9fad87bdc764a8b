-- The TPIN check every money route makes before its money step (modules/accounts/tpin.ts,
-- checkTpin), in one call: the account's row lock, its operator and TPIN locks, the keyed
-- hash compared, a wrong TPIN counted (and at the last allowed one the lock written with its
-- activity and audit entry), a right one clearing the count and upgrading a first-version
-- hash. It commits on its own (its own transaction when called alone), so a wrong guess is
-- counted even though the request then fails.
--
-- The keyed hashes are made by the server (the key never enters the database), as for
-- ledger_transfer: p_name_mac for p_mac_user_name (hmac2$, compared with the row's user name
-- byte for byte) and p_id_mac for the account id (hmac1$). Kinds:
--   ok, wrong (remaining), locked (locked_until), operator_locked, missing,
--   rekey (user_name: the server makes the hash for it and calls again; never a strike),
--   legacy (an argon2 hash: the server verifies and upgrades it itself).
--
-- Lock: the account's row FOR NO KEY UPDATE (foreign-key checks naming it do not wait), held
-- to commit, so checks on one account run one after another and parallel guesses are counted
-- exactly.
CREATE OR REPLACE FUNCTION tpin_check(
  p_account_id uuid,
  p_mac_user_name text,
  p_name_mac text,
  p_id_mac text,
  p_actor_user_id uuid,
  p_max_attempts integer,
  p_lock_minutes integer,
  OUT kind text,
  OUT remaining integer,
  OUT locked_until timestamptz,
  OUT user_name text
) LANGUAGE plpgsql AS $$
DECLARE
  a record;
  v_ok boolean;
  v_upgrade boolean := false;
  v_failures integer;
  v_until timestamptz;
BEGIN
  SELECT x.user_name, x.tpin_hash, x.tpin_failed_attempts, x.tpin_locked_until, x.money_movement_locked
    INTO a FROM accounts x WHERE x.id = p_account_id FOR NO KEY UPDATE;
  IF NOT FOUND THEN kind := 'missing'; RETURN; END IF;
  IF a.money_movement_locked THEN kind := 'operator_locked'; RETURN; END IF;
  IF a.tpin_locked_until IS NOT NULL AND a.tpin_locked_until > clock_timestamp() THEN
    kind := 'locked';
    locked_until := a.tpin_locked_until;
    RETURN;
  END IF;

  IF left(a.tpin_hash, 6) = 'hmac2$' THEN
    IF p_name_mac IS NULL OR p_mac_user_name IS DISTINCT FROM a.user_name THEN kind := 'rekey'; user_name := a.user_name; RETURN; END IF;
    v_ok := a.tpin_hash = p_name_mac;
  ELSIF left(a.tpin_hash, 6) = 'hmac1$' THEN
    IF p_id_mac IS NULL THEN kind := 'rekey'; user_name := a.user_name; RETURN; END IF;
    v_ok := a.tpin_hash = p_id_mac;
    -- A match is upgraded to the current version, which needs the hash for the row's user name.
    IF v_ok IS TRUE AND (p_name_mac IS NULL OR p_mac_user_name IS DISTINCT FROM a.user_name) THEN kind := 'rekey'; user_name := a.user_name; RETURN; END IF;
    v_upgrade := v_ok IS TRUE;
  ELSE
    kind := 'legacy';
    RETURN;
  END IF;

  -- IS NOT TRUE: a comparison that came out NULL is never a match.
  IF v_ok IS NOT TRUE THEN
    -- A lock that has run out starts a fresh count.
    v_failures := (CASE WHEN a.tpin_locked_until IS NOT NULL THEN 0 ELSE a.tpin_failed_attempts END) + 1;
    IF v_failures >= p_max_attempts THEN
      v_until := clock_timestamp() + make_interval(mins => p_lock_minutes);
      UPDATE accounts SET tpin_failed_attempts = 0, tpin_locked_until = v_until WHERE id = p_account_id;
      INSERT INTO activities (account_id, name, comment)
      VALUES (p_account_id, 'TPIN locked', format('Money movement locked for %s minutes after %s wrong TPINs', p_lock_minutes, p_max_attempts));
      INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id) VALUES (p_actor_user_id, 'account.tpin_locked', 'account', p_account_id::text);
      kind := 'locked';
      locked_until := v_until;
      RETURN;
    END IF;
    UPDATE accounts SET tpin_failed_attempts = v_failures, tpin_locked_until = NULL WHERE id = p_account_id;
    kind := 'wrong';
    remaining := p_max_attempts - v_failures;
    RETURN;
  END IF;
  IF v_upgrade THEN
    UPDATE accounts SET tpin_hash = p_name_mac, tpin_failed_attempts = 0, tpin_locked_until = NULL WHERE id = p_account_id;
  ELSIF a.tpin_failed_attempts > 0 OR a.tpin_locked_until IS NOT NULL THEN
    UPDATE accounts SET tpin_failed_attempts = 0, tpin_locked_until = NULL WHERE id = p_account_id;
  END IF;
  kind := 'ok';
END;
$$;
