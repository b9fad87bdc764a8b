import { type AccountCounters } from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { ownedAccountQuery } from '../../http/ownership.ts';
import { countAccountTransactionsQuery } from '../accounts/accounts.service.ts';
import { countAccountLinkPaymentsQuery } from '../payment-requests/payment-requests.service.ts';
import { accountPaymentCountersQuery } from '../stores/stores.service.ts';
import { countAccountWithdrawalsQuery } from '../withdrawals/withdrawals.service.ts';

/*
 * The dashboard's counters draw on several features (payments, withdrawals, the ledger), so
 * they live above all of them here rather than in accounts, which those features build on.
 */

/**
 * GET /v1/account/{key}/summary: the dashboard's four counters for one of the caller's
 * accounts, in one query: the ownership check is its first part (an account that is not the
 * caller's answers no row: 404), each counter a subquery of its own feature.
 *
 * Payments are what the account received (issue 20): its stores' payments (Total: all, Success:
 * paid) plus the payments made to it through its payment links (each one paid, so in both).
 */
export async function accountSummary(ctx: AppContext, callerId: string, key: string): Promise<AccountCounters> {
  const owned = ownedAccountQuery(ctx.db, { userId: callerId }, key).clearSelect().select('accounts.id');
  const accountId = sql<string>`owned.id`;
  const { rows } = await sql<{ totalPayments: number; successPayments: number; totalWithdraw: number; totalTransactions: number }>`
    WITH owned AS ${owned}
    SELECT payments.total + links.count AS "totalPayments", payments.success + links.count AS "successPayments",
           ${countAccountWithdrawalsQuery(ctx.db, accountId)} AS "totalWithdraw",
           ${countAccountTransactionsQuery(ctx.db, accountId)} AS "totalTransactions"
    FROM owned CROSS JOIN LATERAL ${accountPaymentCountersQuery(ctx.db, accountId)} AS payments
      CROSS JOIN LATERAL ${countAccountLinkPaymentsQuery(ctx.db, accountId)} AS links`.execute(ctx.db);
  const row = rows[0];
  if (!row) throw refuse('account_not_found');
  return {
    totalPayments: Number(row.totalPayments),
    successPayments: Number(row.successPayments),
    totalWithdraw: Number(row.totalWithdraw),
    totalTransactions: Number(row.totalTransactions),
  };
}
