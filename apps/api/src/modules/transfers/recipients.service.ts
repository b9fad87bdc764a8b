import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { countersOf, exceeded } from '../../http/rate-limit.ts';
import { RECIPIENT_LOOKUPS_PER_DAY, RECIPIENT_SEARCH_MIN_LENGTH, type Recipient } from '@kestrel/shared';
import { findOwnedAccount } from '../../http/ownership.ts';
import { findAccountByUserName, searchAccountDirectory } from '../accounts/accounts.service.ts';
import { searchGateOf } from '../users/users.service.ts';
import { recentRecipients } from './transfers.repository.ts';

export const SEARCH_RESULT_LIMIT = 20;
export const RECENT_RECIPIENT_LIMIT = 10;

export const SEARCH_NOT_ALLOWED = 'Verify your email and open an account before searching for recipients';
/** Searches per signed-in user per minute (the route also limits each address). */
export const SEARCH_LIMIT_PER_USER = { max: 30, windowMs: 60_000 } as const;
/** Searches and look-ups per user per day: holds with RATE_LIMITS=off too, like the sign-in's per-e-mail budget. */
export const SEARCH_DAILY_CAP = { max: RECIPIENT_LOOKUPS_PER_DAY, windowMs: 24 * 60 * 60_000 } as const;

/**
 * Who may search the directory: a user with a verified e-mail and at least one account (a
 * throw-away sign-up cannot harvest it), within a per-user budget a minute and a cap a day,
 * on top of the per-address limit of the route.
 */
async function assertMaySearch(ctx: AppContext, callerId: string): Promise<void> {
  const caller = await searchGateOf(ctx.db, callerId);
  if (!caller?.isEmailVerified || !caller.hasAccount) throw refuse('search_not_allowed');
  const daily = { key: `search:user-day:${callerId}`, ...SEARCH_DAILY_CAP };
  const limits = ctx.config.rateLimits ? [daily, { key: `search:user:${callerId}`, ...SEARCH_LIMIT_PER_USER }] : [daily];
  const over = exceeded(limits, await countersOf(ctx).take(limits));
  if (over?.limit === daily) throw refuse('search_daily_cap');
  if (over) throw refuse('rate_limited');
}

/**
 * "Alice Cooper" → "Alice C.": enough for a sender to recognise the person they meant, not
 * enough to learn who holds an e-mail address or phone number they tried.
 */
export function maskHolderName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return words[0] ?? '';
  return `${words[0]} ${words[words.length - 1]!.charAt(0).toUpperCase()}.`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** What a sender sees of a recipient; e-mail and phone only when the sender typed them exactly. */
function recipientView(
  row: { id: string; accountNumber: string; accountType: Recipient['accountType']; accountHolderName: string; businessName: string | null; userName: string; accountEmail?: string; accountPhone?: string },
  echo: { email?: string; phone?: string } = {},
): Recipient {
  const view: Recipient = {
    _id: row.id,
    accountNumber: row.accountNumber,
    accountType: row.accountType,
    accountHolderName: row.accountHolderName,
    businessName: row.businessName,
    userName: row.userName,
  };
  if (echo.email !== undefined && row.accountEmail?.toLowerCase() === echo.email) view.accountEmail = row.accountEmail;
  if (echo.phone !== undefined && row.accountPhone === echo.phone) view.accountPhone = row.accountPhone;
  return view;
}

/**
 * Recipient search: account number, e-mail, phone and user name match exactly; holder and
 * business names match by part. Exact matches come first, then by holder name. Only the
 * current (sending) account, `excludeAccountNumber`, is left out (spec, section 2,
 * 'Recipient search'): a holder with a personal and a business account can pay one from the
 * other. E-mail and phone are only echoed back when the caller already typed them exactly.
 * The holder's name is masked ("Alice C.") until the sender picks the recipient (the look-up
 * by user name, findRecipient); a query shorter than RECIPIENT_SEARCH_MIN_LENGTH matches
 * nothing and uses no budget.
 */
export async function searchRecipients(ctx: AppContext, callerId: string, rawQuery: string, excludeAccountNumber?: string): Promise<Recipient[]> {
  const query = rawQuery.trim();
  if (query.length < RECIPIENT_SEARCH_MIN_LENGTH) return [];
  await assertMaySearch(ctx, callerId);
  const lower = query.toLowerCase();
  const phone = query.replace(/[\s-]/g, '');
  const byName = `%${escapeLike(lower)}%`;

  const rows = await searchAccountDirectory(ctx.db, { query, lower, phone, byName, excludeAccountNumber, limit: SEARCH_RESULT_LIMIT });
  return rows.map((row) => ({ ...recipientView(row, { email: lower, phone }), accountHolderName: maskHolderName(row.accountHolderName) }));
}

/**
 * GET /v1/recipients/{userName}: the account with exactly this user name (any holder, the
 * caller's own other accounts included), for the Complete Transfer page: the recipient the
 * sender picked, with the holder's name in full (the spec's read-only recipient name); no
 * e-mail or phone. Counted in the same daily cap as the searches.
 */
export async function findRecipient(ctx: AppContext, callerId: string, userName: string): Promise<Recipient> {
  // An exact lookup is a directory query too: the same gate as the search.
  await assertMaySearch(ctx, callerId);
  const row = await findAccountByUserName(ctx.db, userName);
  if (!row) throw refuse('recipient_not_found');
  return recipientView(row);
}

export async function listRecentRecipients(ctx: AppContext, callerId: string, accountNumber: string): Promise<Recipient[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw refuse('account_not_found');
  const rows = await recentRecipients(ctx.db, account.id, RECENT_RECIPIENT_LIMIT);
  return rows.map((row) => recipientView(row));
}
