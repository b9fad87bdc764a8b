import type { AppContext } from '../../context.ts';
import { forbidden, notFound, tooManyRequests } from '../../http/errors.ts';
import { countersOf, exceeded } from '../../http/rate-limit.ts';
import { messages } from '@kestrel/shared';
import { findOwnedAccountByNumber, recentRecipients } from './transfers.repository.ts';

export const SEARCH_RESULT_LIMIT = 20;
export const RECENT_RECIPIENT_LIMIT = 10;
/** Names are matched by part only from this many characters, so one letter cannot list everyone. */
export const NAME_SEARCH_MIN_LENGTH = 2;

export interface RecipientView {
  _id: string;
  accountNumber: string;
  accountType: string;
  accountHolderName: string;
  businessName: string | null;
  userName: string;
  /** Only present when the query was this exact e-mail. */
  accountEmail?: string;
  /** Only present when the query was this exact phone number. */
  accountPhone?: string;
}

export const SEARCH_NOT_ALLOWED = 'Verify your email and open an account before searching for recipients';
/** Searches per signed-in user per minute (the route also limits each address). */
export const SEARCH_LIMIT_PER_USER = { max: 30, windowMs: 60_000 } as const;

/**
 * Who may search the directory: a user with a verified e-mail and at least one account (a
 * throw-away sign-up cannot harvest it), within a per-user budget on top of the per-address one.
 */
async function assertMaySearch(ctx: AppContext, callerId: string): Promise<void> {
  const caller = await ctx.db
    .selectFrom('users')
    .select((eb) => ['isEmailVerified', eb.exists(eb.selectFrom('accountUsers').select('accountId').where('accountUsers.userId', '=', callerId)).as('hasAccount')])
    .where('id', '=', callerId)
    .executeTakeFirst();
  if (!caller?.isEmailVerified || !caller.hasAccount) throw forbidden(SEARCH_NOT_ALLOWED, 'search_not_allowed');
  if (!ctx.config.rateLimits) return;
  const limits = [{ key: `search:user:${callerId}`, ...SEARCH_LIMIT_PER_USER }];
  if (exceeded(limits, await countersOf(ctx).take(limits))) throw tooManyRequests();
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Recipient search: account number, e-mail, phone and user name match exactly; holder and
 * business names match by part. The caller's own accounts are left out, and e-mail or phone
 * are only echoed back when the caller already typed them exactly.
 */
export async function searchRecipients(ctx: AppContext, callerId: string, rawQuery: string): Promise<RecipientView[]> {
  await assertMaySearch(ctx, callerId);
  const query = rawQuery.trim();
  if (!query) return [];
  const lower = query.toLowerCase();
  const phone = query.replace(/[\s-]/g, '');
  const byName = query.length >= NAME_SEARCH_MIN_LENGTH ? `%${escapeLike(lower)}%` : undefined;

  const rows = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'accountNumber', 'accountType', 'accountHolderName', 'businessName', 'userName', 'accountEmail', 'accountPhone'])
    .where((eb) =>
      eb.or([
        eb('accountNumber', '=', query),
        eb(eb.fn('lower', ['accountEmail']), '=', lower),
        eb('accountPhone', '=', phone),
        eb(eb.fn('lower', ['userName']), '=', lower),
        ...(byName ? [eb(eb.fn('lower', ['accountHolderName']), 'like', byName), eb(eb.fn('lower', ['businessName']), 'like', byName)] : []),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('accountUsers').select('accountUsers.accountId').whereRef('accountUsers.accountId', '=', 'accounts.id').where('accountUsers.userId', '=', callerId))),
    )
    .orderBy('accountHolderName')
    .orderBy('accountNumber')
    .limit(SEARCH_RESULT_LIMIT)
    .execute();

  return rows.map((row) => {
    const view: RecipientView = {
      _id: row.id,
      accountNumber: row.accountNumber,
      accountType: row.accountType,
      accountHolderName: row.accountHolderName,
      businessName: row.businessName,
      userName: row.userName,
    };
    if (row.accountEmail.toLowerCase() === lower) view.accountEmail = row.accountEmail;
    if (row.accountPhone === phone) view.accountPhone = row.accountPhone;
    return view;
  });
}

export async function listRecentRecipients(ctx: AppContext, callerId: string, accountNumber: string): Promise<RecipientView[]> {
  const account = await findOwnedAccountByNumber(ctx.db, callerId, accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const rows = await recentRecipients(ctx.db, account.id, RECENT_RECIPIENT_LIMIT);
  return rows.map((row) => ({
    _id: row.id,
    accountNumber: row.accountNumber,
    accountType: row.accountType,
    accountHolderName: row.accountHolderName,
    businessName: row.businessName,
    userName: row.userName,
  }));
}
