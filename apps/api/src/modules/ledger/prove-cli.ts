import { readFileSync } from 'node:fs';
import { accountStatement, ledgerProof, publishedSeals, verifyLedgerProof, verifySealChain, verifyStatement } from '@kestrel/shared';

/*
 * `npm run ledger:prove -- <proof.json> <seals.json>`: checks a downloaded transaction proof
 * (GET /v1/ledger/proof/{transactionId}) against downloaded published seals
 * (GET /v1/ledger/seals), with no access to Kestrel's database. Exit 0 when the transaction is
 * exactly what was sealed and the seals chain and are signed; 1 otherwise; 2 on bad usage.
 *
 * `npm run ledger:prove -- --statement <statement.json> <seals.json>`: the same for a downloaded
 * monthly statement (GET /v1/statement/account/{accountNumber}/{month}): Kestrel's signature,
 * the running balance, and every movement's proof (statement-proof.ts, `verifyStatement`).
 */

const usage = 'usage: npm run ledger:prove -- <proof.json> <seals.json>\n       npm run ledger:prove -- --statement <statement.json> <seals.json>';

/** A file holding the API's answer ({ status, data }) or just its data. */
function readAnswer(file: string): unknown {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return parsed && typeof parsed === 'object' && 'data' in parsed ? (parsed as { data: unknown }).data : parsed;
}

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const statementMode = args[0] === '--statement';
const [documentFile, sealsFile] = statementMode ? args.slice(1) : args;
if (!documentFile || !sealsFile) {
  console.error(usage);
  process.exit(2);
}
const seals = publishedSeals.safeParse(readAnswer(sealsFile));
const document = (statementMode ? accountStatement : ledgerProof).safeParse(readAnswer(documentFile));
if (!document.success || !seals.success) {
  console.error(`${!document.success ? documentFile : sealsFile} is not a ledger ${!document.success ? (statementMode ? 'statement' : 'proof') : 'seals'} file.`);
  process.exit(2);
}

if (statementMode) {
  const statement = accountStatement.parse(document.data);
  const verdict = await verifyStatement(statement, seals.data);
  if (verdict.ok) {
    console.log(
      `OK: the statement of account ${statement.accountNumber} for ${statement.month}${statement.complete ? '' : ' (so far)'} is Kestrel's, unchanged: ${verdict.movements} movements, each in a published seal, from ${statement.openingBalanceCents} to ${statement.closingBalanceCents} cents ${statement.currency}, signed by key ${seals.data.publicKey}.`,
    );
  } else {
    for (const problem of verdict.problems) console.error(`FAILED: ${problem}`);
  }
  process.exitCode = verdict.ok ? 0 : 1;
} else {
  const proof = ledgerProof.parse(document.data);
  const chainProblems = await verifySealChain(seals.data);
  const verdict = await verifyLedgerProof(proof, seals.data);
  for (const problem of chainProblems) console.error(`PROBLEM seals: ${problem}`);
  if (verdict.ok) {
    const { record } = proof;
    console.log(`OK: transaction ${record.transactionId} (${record.transactionFor}, ${record.currency} ${record.amountCents} cents, ${record.createdAt}) is in seal ${verdict.sealNo}, signed by key ${seals.data.publicKey}.`);
  } else {
    console.error(`FAILED: ${verdict.reason}`);
  }
  process.exitCode = verdict.ok && chainProblems.length === 0 ? 0 : 1;
}
