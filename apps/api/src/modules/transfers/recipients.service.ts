import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { messages, type Recipient } from '@kestrel/shared';
import { findOwnedAccount, ownedBy } from '../../http/ownership.ts';
import { recentRecipients } from './transfers.repository.ts';

export const SEARCH_RESULT_LIMIT = 20;
export const RECENT_RECIPIENT_LIMIT = 10;
/** Names are matched by part only from this many characters, so one letter cannot list everyone. */
export const NAME_SEARCH_MIN_LENGTH = 2;


function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Recipient search: account number, e-mail, phone and user name match exactly; holder and
 * business names match by part. The caller's own accounts are left out, and e-mail or phone
 * are only echoed back when the caller already typed them exactly.
 */
export async function searchRecipients(ctx: AppContext, callerId: string, rawQuery: string): Promise<Recipient[]> {
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
    .where((eb) => eb.not(ownedBy({ userId: callerId })(eb)))
    .orderBy('accountHolderName')
    .orderBy('accountNumber')
    .limit(SEARCH_RESULT_LIMIT)
    .execute();

  return rows.map((row) => {
    const view: Recipient = {
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

export async function listRecentRecipients(ctx: AppContext, callerId: string, accountNumber: string): Promise<Recipient[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
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
