import { messages, type AccountCounters } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { findOwnedAccount } from '../../http/ownership.ts';
import { countAccountTransactions } from '../accounts/accounts.repository.ts';
import { accountPaymentCounters } from '../stores/stores.repository.ts';
import { countAccountWithdrawals } from '../withdrawals/withdrawals.repository.ts';

/*
 * The dashboard's counters draw on several features (payments, withdrawals, the ledger), so
 * they live above all of them here rather than in accounts, which those features build on.
 */

/** GET /v1/account/{key}/summary: the dashboard's four counters for one of the caller's accounts. */
export async function accountSummary(ctx: AppContext, callerId: string, key: string): Promise<AccountCounters> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, key);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const [payments, totalWithdraw, totalTransactions] = await Promise.all([
    // Gateway payments into this account (every store it owns); success = paid.
    accountPaymentCounters(ctx.db, account.id),
    countAccountWithdrawals(ctx.db, account.id),
    countAccountTransactions(ctx.db, account.id),
  ]);
  return { totalPayments: payments.total, successPayments: payments.success, totalWithdraw, totalTransactions };
}
