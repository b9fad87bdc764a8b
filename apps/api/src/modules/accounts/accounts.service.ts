import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  asCents,
  asCurrency,
  centsToMajor,
  DEFAULT_ACCOUNT_FEE,
  messages,
  type Account,
  type CreateAccountBody,
  type CreatedAccount,
  type IdentityImage,
  type UploadIdentityImageFields,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, isUniqueViolation, type Trx } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import type { UploadedFile } from '../../http/multipart.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { countryCodeOf } from './countries.ts';
import { tpinMac } from './tpin.ts';
import { openWalletLedgerAccount, walletBalances } from '../ledger/ledger.service.ts';
import { processImageUpload, removeUploads, storedUploadPath, storeImage, uploadDirectory, type ProcessedImage } from '../uploads/uploads.ts';
import { findUserById } from '../users/users.service.ts';
import { findOwnedAccount, type OwnedAccount } from '../../http/ownership.ts';
import { nextAccountNumber } from './account-number.ts';
import {
  findVisibleIdentityDocument,
  insertAccount,
  insertIdentityDocuments,
  listIdentityDocuments,
} from './accounts.repository.ts';

// Other modules read this module's tables through these (lint keeps them out of its repository).
export { accountContacts, countAccountTransactions, countAccountTransactionsQuery, type AccountContactRow } from './accounts.repository.ts';
// The recipient directory (modules/transfers).
export { findAccountByUserName, searchAccountDirectory } from './directory.repository.ts';
// The operator console's and the demo data set's account reads and changes (modules/operator, modules/demo).
export {
  accountNumberOf,
  findAccountForOperator,
  findAccountIdByUserName,
  gatewayFeesOf,
  holderOf,
  hasIdentityDocumentsUnderReview,
  holdsAnAccount,
  identityReviewRows,
  lockIdentityRow,
  lockMoneyMovementRow,
  markIdentityVerified,
  searchAccountSummaries,
  selectAccountNumber,
  setAsideIdentityDocuments,
  setStepUpThreshold,
  writeMoneyMovementLock,
} from './accounts.repository.ts';

export const MAX_IDENTITY_IMAGES = 10;
const IDENTITY_UPLOAD_AREA = 'identity';

/** The database's unique indexes and the spec's answer for each (document 1, section 8). */
const UNIQUE_FIELDS = [
  { constraint: 'accounts_user_name_key', field: 'userName', message: messages.account.userNameTaken, code: 'user_name_taken' },
  { constraint: 'accounts_account_email_key', field: 'accountEmail', message: messages.account.accountEmailTaken, code: 'account_email_taken' },
  { constraint: 'accounts_account_phone_key', field: 'accountPhone', message: messages.account.accountPhoneTaken, code: 'account_phone_taken' },
  {
    constraint: 'accounts_identity_number_key',
    field: 'identity.number',
    message: messages.account.identityNumberTaken,
    code: 'identity_number_taken',
  },
] as const;

export interface OpenAccountInput {
  ownerUserId: string;
  body: CreateAccountBody;
  /** The stored TPIN for the new account (the keyed hash covers its user name: see tpin.ts). */
  tpinHashFor: (accountId: string) => string;
  ip?: string | null;
}

/**
 * Writes a new account inside the caller's transaction: the row (fees fixed by Kestrel,
 * whatever the client sent), its owner, one ledger account per currency, the 'Account
 * created' activity and an audit entry. A taken user name, e-mail, phone or identity number
 * fails on the unique indexes (see createAccount for the answers), so races are covered.
 */
export async function openAccount(trx: Trx, input: OpenAccountInput): Promise<CreatedAccount> {
  const { body } = input;
  const business = body.accountType === 'business';
  const accountNumber = await nextAccountNumber(trx);
  const id = randomUUID();
  const account = await insertAccount(
    trx,
    {
      id,
      accountNumber,
      accountType: body.accountType,
      accountHolderName: body.accountHolderName,
      businessName: business ? (body.businessName ?? null) : null,
      companyName: business ? (body.companyName ?? null) : null,
      userName: body.userName,
      accountEmail: body.accountEmail,
      accountPhone: body.accountPhone,
      identityType: body.identity.type,
      identityNumber: body.identity.number,
      dateOfBirth: body.dateOfBirth,
      street: body.address.street,
      city: body.address.city,
      state: body.address.state,
      zipCode: body.address.zipCode,
      country: body.address.country,
      notificationPreference: body.notificationPreference,
      occupation: body.occupation,
      annualIncome: body.annualIncome,
      // The spec fixes both fees at creation: fixed 0, percentage 2.
      gatewayFeeFixedCents: DEFAULT_ACCOUNT_FEE.fixedCents,
      gatewayFeePercent: DEFAULT_ACCOUNT_FEE.percent,
      paymentRequestFeeFixedCents: DEFAULT_ACCOUNT_FEE.fixedCents,
      paymentRequestFeePercent: DEFAULT_ACCOUNT_FEE.percent,
      tpinHash: input.tpinHashFor(id),
    },
    input.ownerUserId,
  );
  for (const { currency } of body.balance) await openWalletLedgerAccount(trx, account.id, currency);
  await recordActivity(trx, account.id, 'Account created', `${business ? 'Business' : 'Personal'} account ${accountNumber} opened`);
  await recordAudit(trx, {
    actorUserId: input.ownerUserId,
    action: 'account.created',
    subjectType: 'account',
    subjectId: account.id,
    ip: input.ip ?? null,
    details: { accountNumber, accountType: body.accountType },
  });
  return { _id: account.id, accountNumber: account.accountNumber, accountEmail: account.accountEmail, userName: account.userName };
}

/**
 * POST /v1/account/create. The owner is the signed-in caller: a body naming another user is
 * refused, and so is a caller whose e-mail is not verified yet.
 */
export async function createAccount(ctx: AppContext, callerId: string, body: CreateAccountBody, ip: string): Promise<CreatedAccount> {
  const [owner] = body.users;
  if (!owner || owner.userId !== callerId) throw refuse('not_account_owner');
  const user = await findUserById(ctx.db, callerId);
  if (!user) throw refuse('unauthorized');
  if (!user.isEmailVerified) throw refuse('email_not_verified');
  // Separation of duties: an operator never holds a wallet (they could fund it, approve its store, pay it out).
  if (user.isOperator) throw refuse('operator_cannot_hold_account');

  // The country is stored as its ISO code, whether the list's code or its name was sent.
  const country = countryCodeOf(body.address.country);
  if (!country) throw refuse('invalid_request', { message: messages.account.countryUnknown, fields: { 'address.country': messages.account.countryUnknown } });
  const stored: CreateAccountBody = { ...body, address: { ...body.address, country } };

  // The user name is stored as sent (after the schema's trim); the hash covers exactly that.
  const tpinHashFor = () => tpinMac(ctx.config.secretKey, body.userName, owner.tpin);
  try {
    return await inTransaction(ctx.db, (trx) => openAccount(trx, { ownerUserId: callerId, body: stored, tpinHashFor, ip }));
  } catch (error) {
    for (const unique of UNIQUE_FIELDS) {
      if (isUniqueViolation(error, unique.constraint)) throw refuse(unique.code, { message: unique.message, fields: { [unique.field]: unique.message } });
    }
    throw error;
  }
}

async function ownedAccountOr404(ctx: AppContext, callerId: string, key: string): Promise<OwnedAccount> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, key);
  if (!account) throw refuse('account_not_found');
  return account;
}

export function identityImageUrl(accountId: string, imageId: string): string {
  return `/v1/account/${accountId}/identity-images/${imageId}`;
}

/** Fees are kept as fixed cents and a percentage; the API shows fixed in major units. */
function feeView(fixedCents: number, percent: string) {
  return { fixed: centsToMajor(asCents(fixedCents)), percentage: Number(percent) };
}

/** GET /v1/account/{accountId | accountNumber | userName}: the spec's Account, owner only. */
export async function getAccount(ctx: AppContext, callerId: string, key: string): Promise<Account> {
  const account = await ownedAccountOr404(ctx, callerId, key);
  const [balances, images, owners] = await Promise.all([
    walletBalances(ctx.db, account.id),
    listIdentityDocuments(ctx.db, account.id),
    ctx.db.selectFrom('accountUsers').select('userId').where('accountId', '=', account.id).orderBy('createdAt').execute(),
  ]);
  return {
    _id: account.id,
    accountNumber: account.accountNumber,
    accountType: account.accountType,
    accountHolderName: account.accountHolderName,
    businessName: account.businessName,
    companyName: account.companyName,
    userName: account.userName,
    accountEmail: account.accountEmail,
    accountPhone: account.accountPhone,
    createdAt: account.createdAt.toISOString(),
    balance: balances.map((entry) => ({ currency: asCurrency(entry.currency), amount: centsToMajor(asCents(entry.amountCents)) })),
    identity: { type: account.identityType, number: account.identityNumber, isVerified: account.identityVerified },
    identityImages: images.map((image) => ({
      _id: image.id,
      url: identityImageUrl(account.id, image.id),
      createdAt: image.createdAt.toISOString(),
    })),
    users: owners.map((owner) => ({ userId: owner.userId })),
    dateOfBirth: account.dateOfBirthText,
    address: { street: account.street, city: account.city, state: account.state, zipCode: account.zipCode, country: account.country },
    notificationPreference: account.notificationPreference,
    occupation: account.occupation,
    annualIncome: account.annualIncome,
    gatewayFee: feeView(account.gatewayFeeFixedCents, account.gatewayFeePercent),
    paymentRequestFee: feeView(account.paymentRequestFeeFixedCents, account.paymentRequestFeePercent),
  };
}

/**
 * PATCH /v1/account/upload-image. Every file is checked by its content before anything is
 * stored; the files are written under random names, then recorded in one transaction (and
 * removed again if that fails).
 */
export async function uploadIdentityImages(
  ctx: AppContext,
  callerId: string,
  fields: UploadIdentityImageFields,
  files: UploadedFile[],
  ip: string,
): Promise<IdentityImage[]> {
  const account = await ownedAccountOr404(ctx, callerId, fields.accountId || fields.accountNumber || '');
  // When both are sent they must name the same account.
  if (fields.accountId && fields.accountNumber && fields.accountNumber !== account.accountNumber) {
    throw refuse('account_not_found');
  }
  if (files.length === 0) {
    throw refuse('identity_image_required', { fields: { identityImage: messages.account.identityImageRequired } });
  }
  if (files.length > MAX_IDENTITY_IMAGES) {
    throw refuse('too_many_files', { message: messages.account.identityImageTooMany, fields: { identityImage: messages.account.identityImageTooMany } });
  }
  // Every file is re-encoded (metadata stripped, size capped) before anything is stored; only the new encoding is kept.
  const images: ProcessedImage[] = [];
  for (const file of files) {
    images.push(await processImageUpload(file, { field: 'identityImage', label: messages.account.identityImagesOnly }));
  }

  const directory = uploadDirectory(ctx.config.dataDir, IDENTITY_UPLOAD_AREA);
  const stored: string[] = [];
  try {
    for (const image of images) stored.push(await storeImage(directory, image));
    const rows = await inTransaction(ctx.db, async (trx) => {
      const inserted = await insertIdentityDocuments(
        trx,
        images.map((image, index) => ({
          accountId: account.id,
          storedName: stored[index]!,
          mimeType: image.mimeType,
          sizeBytes: image.bytes.length,
        })),
      );
      await recordActivity(trx, account.id, messages.account.identityUploaded, `${images.length} image${images.length === 1 ? '' : 's'} added`);
      await recordAudit(trx, {
        actorUserId: callerId,
        action: 'account.identity_uploaded',
        subjectType: 'account',
        subjectId: account.id,
        ip,
        details: { count: images.length },
      });
      return inserted;
    });
    return rows.map((row) => ({ _id: row.id, url: identityImageUrl(account.id, row.id), createdAt: row.createdAt.toISOString() }));
  } catch (error) {
    await removeUploads(directory, stored);
    throw error;
  }
}

/** GET /v1/account/{accountId}/identity-images/{imageId}: the bytes, for the owner or an operator. */
export async function readIdentityImage(ctx: AppContext, callerId: string, accountId: string, imageId: string) {
  const document = await findVisibleIdentityDocument(ctx.db, callerId, accountId, imageId);
  if (!document) throw refuse('image_not_found');
  const bytes = await readFile(storedUploadPath(uploadDirectory(ctx.config.dataDir, IDENTITY_UPLOAD_AREA), document.storedName)).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw refuse('image_not_found');
      throw error;
    },
  );
  return { bytes, mimeType: document.mimeType };
}

