import { z } from 'zod';
import { CURRENCIES } from '../constants.ts';
import { withExample } from '../contract-examples.ts';
import { STATEMENT_FORMAT } from '../statement-proof.ts';
import { ledgerProof } from './ledger.ts';

/*
 * Monthly statements (issue 26): one account's ledger movements of one UTC month, with the
 * opening balance, the running balance and the closing balance, as a PDF and as signed JSON
 * whose movements carry their ledger proofs (checker: statement-proof.ts).
 */

export const statementMessages = {
  noSuchMonth: 'There is no statement for this month.',
} as const;

const month = withExample(
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use a month as YYYY-MM')
    .describe('A UTC month, YYYY-MM'),
  '2026-10',
);

export const statementAccountParams = z.object({ accountNumber: z.string().min(1).max(64) });
export const statementParams = statementAccountParams.extend({ month });
export const statementQuery = z.object({ currency: z.enum(CURRENCIES).optional().describe('Default USD') });

export const statementMonth = z.object({
  month,
  /** False for the current month, offered "so far". */
  complete: z.boolean().describe('False for the current month: its statement so far'),
});
export type StatementMonth = z.infer<typeof statementMonth>;

export const statementMonthList = z.object({
  accountNumber: z.string(),
  months: z.array(statementMonth).describe('Newest first: the current month (so far), then every month back to the one the account was opened in'),
});
export type StatementMonthList = z.infer<typeof statementMonthList>;

const centsText = (description: string) => withExample(z.string().regex(/^-?\d+$/).describe(`${description}; integer cents as decimal text`), '125000');
const utc = withExample(z.string().describe('UTC, microseconds'), '2026-10-05T09:30:00.123456Z');
const hex = z.string().regex(/^[0-9a-f]*$/);

export const statementMovement = z.object({
  transactionId: z.string(),
  createdAt: utc,
  kind: z.string(),
  transactionFor: z.string(),
  amountCents: centsText("The transaction's amount"),
  feeCents: centsText("The transaction's fee"),
  netCents: centsText('What it did to this account, signed'),
  balanceAfterCents: centsText("The account's balance after it"),
  proof: ledgerProof.nullable().describe('Its inclusion proof against the published seals; null until it is sealed (about a minute)'),
});

export const accountStatement = z.object({
  format: z.literal(STATEMENT_FORMAT),
  accountNumber: z.string(),
  accountHolderName: z.string(),
  currency: z.string(),
  month,
  periodStart: utc,
  periodEnd: utc,
  complete: z.boolean(),
  generatedAt: utc,
  openingBalanceCents: centsText('The balance at the start of the month'),
  closingBalanceCents: centsText('The balance at the end of the month (or now, for the current month)'),
  movements: z.array(statementMovement),
  publicKey: withExample(hex.length(64).describe("Kestrel's seal key, raw Ed25519, hex"), '3b7f0e2c9a41d5b8e6f0c2a4d8b1e3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7'),
  signature: withExample(hex.length(128).describe('Ed25519 over the statement message, hex'), '9f2c'.repeat(32)),
});
export type AccountStatement = z.infer<typeof accountStatement>;
