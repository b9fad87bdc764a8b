import { sql, type Expression, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { AccountsTable } from '../../db/schema.ts';
import { isUuid, ownedBy } from '../../http/ownership.ts';

export type NewAccountRow = Insertable<AccountsTable>;

export async function insertAccount(trx: Trx, row: NewAccountRow, ownerUserId: string) {
  const account = await trx
    .insertInto('accounts')
    .values(row)
    .returning(['id', 'accountNumber', 'accountEmail', 'userName', 'createdAt'])
    .executeTakeFirstOrThrow();
  await trx.insertInto('accountUsers').values({ accountId: account.id, userId: ownerUserId, role: 'owner' }).execute();
  return account;
}


export function listIdentityDocuments(db: Db | Trx, accountId: string) {
  return db
    .selectFrom('identityDocuments')
    .select(['id', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

export function insertIdentityDocuments(trx: Trx, rows: { accountId: string; storedName: string; mimeType: string; sizeBytes: number }[]) {
  return trx.insertInto('identityDocuments').values(rows).returning(['id', 'createdAt']).execute();
}

/**
 * An identity document of an account, if the caller owns the account or is an operator.
 * Ids that are not UUIDs are unknown (and never reach the uuid columns).
 */
export function findVisibleIdentityDocument(db: Db, userId: string, accountId: string, imageId: string) {
  if (!isUuid(accountId) || !isUuid(imageId)) return Promise.resolve(undefined);
  return db
    .selectFrom('identityDocuments')
    .select(['identityDocuments.storedName', 'identityDocuments.mimeType', 'identityDocuments.sizeBytes'])
    .innerJoin('accounts', 'accounts.id', 'identityDocuments.accountId')
    .where('identityDocuments.id', '=', imageId)
    .where('identityDocuments.accountId', '=', accountId)
    .where((eb) =>
      eb.or([
        ownedBy({ userId }),
        // Operators review identity documents (the operator routes); the image link is the same.
        eb.exists(eb.selectFrom('users').select('users.id').where('users.id', '=', userId).where('users.isOperator', '=', true)),
      ]),
    )
    .executeTakeFirst();
}

/** Ledger transactions with at least one posting on any of the account's ledger accounts. */
/** The ledger transactions touching an account, counted. `accountId` may be a column of an outer query. */
export function countAccountTransactionsQuery(db: Db, accountId: string | Expression<string>) {
  return db
    .selectFrom('ledgerPostings')
    .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
    .select((eb) => eb.fn.count<number>('ledgerPostings.ledgerTransactionId').distinct().as('count'))
    .where('ledgerAccounts.accountId', '=', accountId);
}

export async function countAccountTransactions(db: Db, accountId: string): Promise<number> {
  const row = await countAccountTransactionsQuery(db, accountId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Where an account's notices go (modules/notifications): its e-mail or its phone, by its
 * notification preference, and the name a notice greets (the business name of a business).
 */
export function accountContacts(db: Db | Trx, accountIds: readonly string[]) {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('accounts')
    .select(['id', 'accountNumber', 'accountType', 'accountHolderName', 'businessName', 'accountEmail', 'accountPhone', 'notificationPreference'])
    .where('id', 'in', [...new Set(accountIds)])
    .execute();
}
export type AccountContactRow = Awaited<ReturnType<typeof accountContacts>>[number];

/* The operator console's reads and changes of accounts (modules/operator). */

const accountSummaryColumns = [
  'accounts.id as accountId',
  'accounts.accountNumber',
  'accounts.accountType',
  'accounts.accountHolderName',
  'accounts.userName',
  'accounts.accountEmail',
  'accounts.accountPhone',
  'accounts.identityVerified',
  'accounts.moneyMovementLocked',
] as const;

/** Accounts whose number, lower-cased user name or e-mail, or phone is LIKE `pattern`, at most 50. */
export function searchAccountSummaries(db: Db, pattern: string) {
  return db
    .selectFrom('accounts')
    .select(accountSummaryColumns)
    .where((eb) =>
      eb.or([
        eb('accounts.accountNumber', 'like', pattern),
        eb(eb.fn('lower', ['accounts.userName']), 'like', pattern),
        eb(eb.fn('lower', ['accounts.accountEmail']), 'like', pattern),
        eb('accounts.accountPhone', 'like', pattern),
      ]),
    )
    .orderBy('accounts.accountNumber')
    .limit(50)
    .execute();
}

/** One account's summary, lock reason, identity and address, for the operator's account page. */
export function findAccountForOperator(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(accountSummaryColumns)
    .select([
      'accounts.moneyMovementLockReason',
      'accounts.identityType',
      'accounts.identityNumber',
      sql<string>`to_char(accounts.date_of_birth, 'YYYY-MM-DD')`.as('dateOfBirth'),
      'accounts.street',
      'accounts.city',
      'accounts.state',
      'accounts.zipCode',
      'accounts.country',
      'accounts.createdAt',
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
}

/** The account's id and number; the caller takes the first row or throws. */
export function selectAccountNumber(db: Db | Trx, accountId: string) {
  return db.selectFrom('accounts').select(['id', 'accountNumber']).where('id', '=', accountId);
}

/** The account's money-movement lock, its row taken FOR UPDATE in `trx`. */
export function lockMoneyMovementRow(trx: Trx, accountId: string) {
  return trx.selectFrom('accounts').select(['moneyMovementLocked', 'moneyMovementLockReason']).where('id', '=', accountId).forUpdate().executeTakeFirst();
}

export async function writeMoneyMovementLock(trx: Trx, accountId: string, locked: boolean, reason: string): Promise<void> {
  await trx
    .updateTable('accounts')
    .set({ moneyMovementLocked: locked, moneyMovementLockReason: locked ? reason : null, updatedAt: new Date() })
    .where('id', '=', accountId)
    .execute();
}

/** The account's identity flag, its row taken FOR UPDATE in `trx`. */
export function lockIdentityRow(trx: Trx, accountId: string) {
  return trx.selectFrom('accounts').select(['id', 'identityVerified']).where('id', '=', accountId).forUpdate().executeTakeFirst();
}

export async function hasIdentityDocumentsUnderReview(trx: Trx, accountId: string): Promise<boolean> {
  const documents = await trx.selectFrom('identityDocuments').select('id').where('accountId', '=', accountId).where('setAsideAt', 'is', null).limit(1).execute();
  return documents.length > 0;
}

export async function markIdentityVerified(trx: Trx, accountId: string): Promise<void> {
  await trx.updateTable('accounts').set({ identityVerified: true, updatedAt: new Date() }).where('id', '=', accountId).execute();
}

/** Sets aside the documents under review; answers their ids. */
export function setAsideIdentityDocuments(trx: Trx, accountId: string) {
  return trx.updateTable('identityDocuments').set({ setAsideAt: new Date() }).where('accountId', '=', accountId).where('setAsideAt', 'is', null).returning('id').execute();
}

/** Unverified accounts' documents under review, oldest upload first, at most 500 rows. */
export function identityReviewRows(db: Db) {
  return db
    .selectFrom('accounts')
    .innerJoin('identityDocuments', 'identityDocuments.accountId', 'accounts.id')
    .select([
      'accounts.id as accountId',
      'accounts.accountNumber',
      'accounts.accountHolderName',
      'accounts.identityType',
      'accounts.identityNumber',
      'identityDocuments.id as documentId',
      'identityDocuments.createdAt',
    ])
    .where('accounts.identityVerified', '=', false)
    // Documents set aside by "Ask for new documents" are not reviewed again.
    .where('identityDocuments.setAsideAt', 'is', null)
    .orderBy('identityDocuments.createdAt')
    .limit(500)
    .execute();
}

/** Whether the user holds any wallet account. */
export async function holdsAnAccount(db: Db, userId: string): Promise<boolean> {
  const holds = await db.selectFrom('accountUsers').select('accountId').where('userId', '=', userId).limit(1).executeTakeFirst();
  return holds !== undefined;
}

/** The account's number; throws when there is none. */
export function accountNumberOf(db: Db, accountId: string) {
  return db.selectFrom('accounts').select('accountNumber').where('id', '=', accountId).executeTakeFirstOrThrow();
}

/* The demo data set's reads and changes of accounts (modules/demo). */

/** The id of the account with exactly this user name. */
export function findAccountIdByUserName(db: Db, userName: string) {
  return db.selectFrom('accounts').select(['id']).where('userName', '=', userName).executeTakeFirst();
}

/** One user who holds the account. */
export function holderOf(db: Db, accountId: string) {
  return db.selectFrom('accountUsers').select('userId').where('accountId', '=', accountId).executeTakeFirst();
}

/** The account's gateway fee settings; throws when there is no such account. */
export function gatewayFeesOf(db: Db, accountId: string) {
  return db.selectFrom('accounts').select(['gatewayFeeFixedCents', 'gatewayFeePercent']).where('id', '=', accountId).executeTakeFirstOrThrow();
}

export async function setStepUpThreshold(trx: Trx, accountId: string, cents: number): Promise<void> {
  await trx.updateTable('accounts').set({ stepUpThresholdCents: cents }).where('id', '=', accountId).execute();
}
