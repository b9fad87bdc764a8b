import { describe, expect, it } from 'vitest';
import { createAccount, createUser, fundAccount } from '../../../test/factories.ts';
import { testServer } from '../../../test/harness.ts';
import { mailMonthlyStatements } from './statement-mail-job.ts';
import { monthOf } from './statements.service.ts';

/*
 * "Your statement is ready" on the 1st (issue 26): only to accounts whose preference is e-mail,
 * once per account and month however often (or however many processes) the job runs.
 */

describe('the monthly statement mail', () => {
  it('mails the month that ended to e-mail accounts only, once per account and month', async () => {
    const server = await testServer();
    const ctx = server.app.ctx;
    const mailUser = await createUser();
    const byMail = await createAccount(mailUser, { notificationPreference: 'email' });
    await fundAccount(byMail.accountId, 12_345);
    const bySms = await createAccount(await createUser(), { notificationPreference: 'sms' });
    const accounts = [byMail.accountId, bySms.accountId];
    const now = new Date();
    const thisMonth = monthOf(now);
    // The 1st of next month, 06:00 UTC: this month has ended.
    const firstOfNext = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));

    // Before this month has ended there is nothing to mail for it (last month they were not open yet).
    expect(await mailMonthlyStatements(ctx, now, accounts)).toBe(0);

    expect(await mailMonthlyStatements(ctx, firstOfNext, accounts)).toBe(1);
    const mails = await server.db.selectFrom('mailMessages').selectAll().where('toAddress', 'in', [byMail.accountEmail, bySms.accountEmail]).where('template', '=', 'statement_ready').execute();
    expect(mails).toHaveLength(1);
    const [year, month] = thisMonth.split('-').map(Number) as [number, number];
    const monthName = new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    expect(mails[0]).toMatchObject({ toAddress: byMail.accountEmail, subject: `Your ${monthName} ${year} statement is ready` });
    expect(mails[0]!.textBody).toContain('Opening balance: US$ 0.00');
    expect(mails[0]!.textBody).toContain('Closing balance: US$ 123.45');
    expect(mails[0]!.textBody).toContain('/my-account?tab=statements');

    // Again, and twice at once (two processes): nothing more.
    expect(await mailMonthlyStatements(ctx, firstOfNext, accounts)).toBe(0);
    expect(await Promise.all([mailMonthlyStatements(ctx, new Date(firstOfNext.getTime() + 3_600_000), accounts), mailMonthlyStatements(ctx, firstOfNext, accounts)])).toEqual([0, 0]);
    const again = await server.db.selectFrom('mailMessages').select('id').where('toAddress', '=', byMail.accountEmail).where('template', '=', 'statement_ready').execute();
    expect(again).toHaveLength(1);
  });
});
