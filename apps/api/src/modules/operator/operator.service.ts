import { randomBytes } from 'node:crypto';
import { PASSWORD_MIN_LENGTH } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/audit.ts';
import { holdsAnAccount } from '../accounts/accounts.service.ts';
import { findOperatorFlagByEmail, insertUser, markOperator } from '../users/users.service.ts';
import { hashSecret } from '../../security/passwords.ts';

export interface OperatorInput {
  email: string;
  password?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  phone?: string | undefined;
}

export type OperatorOutcome = 'created' | 'promoted' | 'already_operator';

/**
 * Makes `email` an operator: an existing user is marked as one (their password is left alone),
 * otherwise a verified operator user is created with the given password.
 */
export async function ensureOperator(db: Db, input: OperatorInput): Promise<{ outcome: OperatorOutcome; userId: string }> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`Not an e-mail address: ${input.email}`);
  const existing = await findOperatorFlagByEmail(db, email);
  if (existing) {
    if (existing.isOperator) return { outcome: 'already_operator', userId: existing.id };
    // Separation of duties: an operator never holds a wallet (they could fund it and pay it out).
    if (await holdsAnAccount(db, existing.id)) throw new Error(`${email} holds a wallet account, and an operator cannot hold one. Create the operator with a separate e-mail address.`);
    await inTransaction(db, async (trx) => {
      await markOperator(trx, existing.id);
      await recordAudit(trx, { actorUserId: null, action: 'operator.promoted', subjectType: 'user', subjectId: existing.id, details: { via: 'cli' } });
    });
    return { outcome: 'promoted', userId: existing.id };
  }

  if (!input.password || input.password.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`A new operator needs --password of at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  const passwordHash = await hashSecret(input.password);
  const userId = await inTransaction(db, async (trx) => {
    const id = await insertUser(trx, {
        firstName: input.firstName ?? 'Kestrel',
        lastName: input.lastName ?? 'Operator',
        email,
        // Phone numbers are unique; an operator without one gets a placeholder no phone can equal.
        contactNumber: input.phone ?? `operator-${randomBytes(6).toString('hex')}`,
        passwordHash,
        isEmailVerified: true,
      isOperator: true,
    });
    await recordAudit(trx, { actorUserId: null, action: 'operator.created', subjectType: 'user', subjectId: id, details: { via: 'cli' } });
    return id;
  });
  return { outcome: 'created', userId };
}
