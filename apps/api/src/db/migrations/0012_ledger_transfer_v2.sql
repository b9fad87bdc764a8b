-- Replaced `ledger_transfer` with its second version (the TPIN's keyed hash `hmac2$` over the
-- sender's user name), by dropping the first version's signature and creating the new one.
-- Both now happen in functions/ledger_transfer.sql (its DROP FUNCTION IF EXISTS removes the
-- first version wherever it is still present), applied by the migration runner after the
-- numbered migrations whenever the file's checksum changes.
--
-- Why emptying this shipped file is safe: it held nothing but the function (no table change);
-- see migration 0010. The number stays so the order and gap checks hold.
SELECT 1;
