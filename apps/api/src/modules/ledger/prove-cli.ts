import { readFileSync } from 'node:fs';
import { ledgerProof, publishedSeals, verifyLedgerProof, verifySealChain } from '@kestrel/shared';

/*
 * `npm run ledger:prove -- <proof.json> <seals.json>`: checks a downloaded transaction proof
 * (GET /v1/ledger/proof/{transactionId}) against downloaded published seals
 * (GET /v1/ledger/seals), with no access to Kestrel's database. Exit 0 when the transaction is
 * exactly what was sealed and the seals chain and are signed; 1 otherwise; 2 on bad usage.
 */

const usage = 'usage: npm run ledger:prove -- <proof.json> <seals.json>';

/** A file holding the API's answer ({ status, data }) or just its data. */
function readAnswer(file: string): unknown {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return parsed && typeof parsed === 'object' && 'data' in parsed ? (parsed as { data: unknown }).data : parsed;
}

const [proofFile, sealsFile] = process.argv.slice(2).filter((arg) => arg !== '--');
if (!proofFile || !sealsFile) {
  console.error(usage);
  process.exit(2);
}
const proof = ledgerProof.safeParse(readAnswer(proofFile));
const seals = publishedSeals.safeParse(readAnswer(sealsFile));
if (!proof.success || !seals.success) {
  console.error(`${!proof.success ? proofFile : sealsFile} is not a ledger ${!proof.success ? 'proof' : 'seals'} file.`);
  process.exit(2);
}
const chainProblems = await verifySealChain(seals.data);
const verdict = await verifyLedgerProof(proof.data, seals.data);
for (const problem of chainProblems) console.error(`PROBLEM seals: ${problem}`);
if (verdict.ok) {
  const { record } = proof.data;
  console.log(`OK: transaction ${record.transactionId} (${record.transactionFor}, ${record.currency} ${record.amountCents} cents, ${record.createdAt}) is in seal ${verdict.sealNo}, signed by key ${seals.data.publicKey}.`);
} else {
  console.error(`FAILED: ${verdict.reason}`);
}
process.exitCode = verdict.ok && chainProblems.length === 0 ? 0 : 1;
