import { z } from 'zod';
import { currencyCode, majorUnits } from './common.ts';

/** The most transactions one list answers. */
export const TRANSACTION_LIST_LIMIT = 1000;

export const transactionListParams = z.object({ accountNumber: z.string() });
/**
 * `limit`: how many transactions (default and most: TRANSACTION_LIST_LIMIT). `cursor`: the
 * `_id` of the last transaction already shown; the answer then holds only older ones (the
 * next page). Without a cursor the answer is the spec's: the latest transactions.
 */
export const transactionListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(TRANSACTION_LIST_LIMIT).optional(),
  cursor: z.coerce.number().int().positive().optional(),
});

export const transactionType = z.enum(['debit', 'credit']);
export type TransactionType = z.infer<typeof transactionType>;

export const transaction = z.object({
  _id: z.string(),
  transactionId: z.string(),
  transactionFor: z.string(),
  amount: majorUnits,
  currency: currencyCode,
  fee: z.object({ amount: majorUnits, currency: currencyCode }),
  transactionAt: z.string().describe('ISO 8601 time'),
  accounts: z.array(z.object({ accountNumber: z.string(), transactionType })).describe('The wallet accounts involved and whether each was debited or credited'),
});
export type Transaction = z.infer<typeof transaction>;

/** The spec's grouping: one group per UTC day (`_id` is YYYY-MM-DD), newest first. */
export const transactionGroup = z.object({ _id: z.string(), transactions: z.array(transaction) });
export type TransactionGroup = z.infer<typeof transactionGroup>;
export const transactionGroupList = z.array(transactionGroup);
