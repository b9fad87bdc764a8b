import type { ActiveAccount, Session } from '../../lib/session.ts';
import type { UserProfile } from '../auth/api.ts';

/**
 * The account the cookies should name, when they name none of the user's accounts:
 * the first one. Login normally writes it; this covers a failed lookup at login and
 * cookies left from another user.
 */
export function accountToActivate(user: UserProfile, session: Session): ActiveAccount | undefined {
  if (user.accounts.some((account) => account.accountNumber === session.accountNumber)) return undefined;
  const first = user.accounts[0];
  return first ? { accountNumber: first.accountNumber, accountEmail: first.accountEmail, userName: first.userName } : undefined;
}
