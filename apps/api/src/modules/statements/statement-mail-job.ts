import { asCents, asCurrency, CURRENCIES, formatMonth, formatMoney } from '@kestrel/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { noticeMail, type Notice } from '../mail/templates.ts';
import { accountName } from '../notifications/notices.ts';
import { startPeriodicJob, type PeriodicJob } from '../../periodic-job.ts';
import { balanceBefore, monthBounds, monthOf } from './statements.service.ts';
import { accountsDueStatement, type DueAccount } from './statements.repository.ts';

/*
 * "Your statement is ready", mailed on the 1st of the month (UTC) for the month that ended, to
 * every account whose notification preference is e-mail and that was open in that month. Every
 * API process checks every STATEMENT_MAIL_CHECK_INTERVAL_MS; a `statement_mails` row per account
 * and month, inserted in the mail's own transaction (the primary key refuses a second), makes it
 * once per account and month whichever process or check gets there first. A server that was down
 * on the 1st mails the month when it is back, until the next month ends.
 */

export const STATEMENT_MAIL_CHECK_INTERVAL_MS = 60 * 60 * 1000;
const BATCH = 100;

export function statementReadyNotice(account: DueAccount, month: string, balances: { openingCents: number; closingCents: number; currency: string }, publicUrl: string): Notice {
  const name = formatMonth(month);
  const money = (cents: number) => formatMoney(asCents(cents), asCurrency(balances.currency));
  return {
    subject: `Your ${name} statement is ready`,
    headline: `Your ${name} statement for account ${account.accountNumber} is ready`,
    name: accountName(account),
    intro: [`Your monthly statement for ${name} (UTC) is ready on My Account → Statements, as a PDF and as signed JSON you can check against Kestrel's published ledger seals.`],
    details: [
      { label: 'Account', value: account.accountNumber },
      { label: 'Opening balance', value: money(balances.openingCents) },
      { label: 'Closing balance', value: money(balances.closingCents) },
    ],
    action: { label: 'Open your statements', url: `${publicUrl}/my-account?tab=statements` },
    footer: `You get this because Kestrel account ${account.accountNumber} sends its notifications to ${account.accountEmail} (its notification preference is e-mail).`,
  };
}

/**
 * Mails the statement of the month that ended before `now` to every account due for it
 * (`onlyAccountIds` narrows it, for tests); answers how many mails it staged.
 */
export async function mailMonthlyStatements(ctx: Pick<AppContext, 'db' | 'mailer' | 'config'>, now = new Date(), onlyAccountIds?: readonly string[]): Promise<number> {
  const month = monthOf(new Date(monthBounds(monthOf(now)).start.getTime() - 1));
  const { start, end } = monthBounds(month);
  const currency = CURRENCIES[0];
  let mailed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const due = await accountsDueStatement(ctx.db, { month, end, after, limit: BATCH, onlyAccountIds });
    for (const account of due) {
      const send = await inTransaction(ctx.db, async (trx) => {
        const claimed = await trx.insertInto('statementMails').values({ accountId: account.id, month }).onConflict((conflict) => conflict.doNothing()).returning('accountId').executeTakeFirst();
        if (!claimed) return null;
        const openingCents = Number(await balanceBefore(trx, account.id, currency, start));
        const closingCents = Number(await balanceBefore(trx, account.id, currency, end));
        return ctx.mailer.stage(trx, noticeMail(account.accountEmail, statementReadyNotice(account, month, { openingCents, closingCents, currency }, ctx.config.publicUrl), { template: 'statement_ready' }));
      });
      if (send) {
        mailed += 1;
        await send();
      }
    }
    if (due.length < BATCH) return mailed;
    after = due.at(-1)!.id;
  }
}

/** Mails due statements now (the server's start) and every `intervalMs`. */
export function startStatementMailJob(ctx: Pick<AppContext, 'db' | 'mailer' | 'config'>, log: FastifyBaseLogger, intervalMs = STATEMENT_MAIL_CHECK_INTERVAL_MS): PeriodicJob {
  return startPeriodicJob(
    'monthly statement mails',
    intervalMs,
    async () => {
      const mailed = await mailMonthlyStatements(ctx);
      if (mailed) log.info({ mailed }, 'monthly statements: mailed');
    },
    log,
  );
}
