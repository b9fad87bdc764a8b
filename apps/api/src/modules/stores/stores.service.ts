import { readFile } from 'node:fs/promises';
import { asCents, centsToMajor, STORE_KEY_GRACE_HOURS, storeMessages, type CreateStoreFields, type StoreStatus, type StoreListView, type StoreReviewView, type StoreView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import type { UploadedFile } from '../../http/multipart.ts';
import { assertNotOwnAccount, findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { countAccountTransactions } from '../accounts/accounts.service.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { urlTargetsPrivateAddress } from '../../security/private-addresses.ts';
import { storedUploadPath, uploadDirectory } from '../uploads/uploads.ts';
import { decryptStoreKey, encryptStoreKey, newStoreId, newStoreKey } from './store-key.ts';
import { processStoreImage, removeStoreImages, STORE_DOCUMENT_AREA, STORE_LOGO_AREA, storeImage, type StoredImage } from './store-images.ts';
import {
  accountPaymentCounters,
  accountRefundCounters,
  findOwnedStore,
  findStoreByPublicId,
  findStoreDocument,
  listAccountStores,
  listStoresByStatus,
  storeDocumentsOf,
  type StoreRow,
} from './stores.repository.ts';

// Other modules read this module's tables through these (lint keeps them out of its repository).
export { accountPaymentCountersQuery, findOwnedStore, findStoreOfUserName, insertStore, recentStoresOf } from './stores.repository.ts';

export const MAX_BUSINESS_DOCUMENTS = 9;

export const storeLogoUrl = (storedName: string) => `/v1/store-logos/${storedName}`;

/** The key replaced by the last rotation, while it is still accepted; after its expiry it is not shown. */
function previousKeyOf(ctx: AppContext, row: StoreRow): Pick<StoreView, 'previousStoreKey' | 'previousStoreKeyExpiresAt'> {
  const expiresAt = row.previousStoreKeyExpiresAt;
  if (!row.previousStoreKeyEncrypted || !expiresAt || expiresAt.getTime() <= Date.now()) return { previousStoreKey: null, previousStoreKeyExpiresAt: null };
  return { previousStoreKey: decryptStoreKey(ctx.config.secretKey, row.previousStoreKeyEncrypted), previousStoreKeyExpiresAt: expiresAt.toISOString() };
}

function storeView(ctx: AppContext, row: StoreRow): StoreView {
  return {
    _id: row.id,
    storeId: row.storeId,
    storeName: row.storeName,
    storeLogo: storeLogoUrl(row.logoStoredName),
    storeURL: row.storeUrl,
    callbackURL: row.callbackUrl,
    storeKey: decryptStoreKey(ctx.config.secretKey, row.storeKeyEncrypted),
    accountEmail: row.accountEmail,
    accountNumber: row.accountNumber,
    status: row.status,
    statusReason: row.statusReason,
    ...previousKeyOf(ctx, row),
    storeKeyRotatedAt: row.storeKeyRotatedAt ? row.storeKeyRotatedAt.toISOString() : null,
    notifyOnPayment: row.notifyOnPayment,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every file through the upload pipeline (re-encoded, metadata stripped) before anything is stored. */
async function processImages(files: UploadedFile[], field: 'storeLogo' | 'businessDocuments') {
  const processed = [];
  for (const file of files) processed.push(await processStoreImage(file, field));
  return processed;
}

/**
 * POST /v1/payment_gateway_store/create. Everything is checked (ownership, files through the
 * upload pipeline, then the TPIN with its lockout) before anything is stored; the images are written under
 * random names and recorded with the store in one transaction (removed again if it fails).
 */
export async function createStore(ctx: AppContext, callerId: string, fields: CreateStoreFields, files: UploadedFile[], ip: string): Promise<StoreView> {
  if (fields.userId !== undefined && fields.userId !== '' && fields.userId !== callerId) throw refuse('forbidden', { message: 'You can only create a store for your own account' });
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, fields.accountKey);
  if (!account) throw refuse('account_not_found');

  // Resolved here, before any transaction (a DNS lookup is a network call); delivery checks again.
  if (!ctx.config.allowPrivateCallbacks && (await urlTargetsPrivateAddress(fields.callbackURL))) {
    throw refuse('callback_url_private', { fields: { callbackURL: storeMessages.callbackUrlPrivate } });
  }

  const logos = files.filter((file) => file.fieldName === 'storeLogo');
  const documents = files.filter((file) => file.fieldName !== 'storeLogo');
  if (logos.length === 0) throw refuse('store_logo_required', { fields: { storeLogo: storeMessages.logoRequired } });
  if (logos.length > 1) throw refuse('store_logo_one', { fields: { storeLogo: storeMessages.oneLogo } });
  if (documents.length === 0) throw refuse('business_documents_required', { fields: { businessDocuments: storeMessages.documentsRequired } });
  if (documents.length > MAX_BUSINESS_DOCUMENTS) throw refuse('too_many_files', { message: storeMessages.tooMany, fields: { businessDocuments: storeMessages.tooMany } });
  const [logo] = await processImages(logos, 'storeLogo');
  const processedDocuments = await processImages(documents, 'businessDocuments');

  await checkTpin(ctx.db, ctx.config.secretKey, account.id, fields.tpin, callerId, account);

  const savedLogo: StoredImage[] = [];
  const savedDocuments: StoredImage[] = [];
  try {
    savedLogo.push(await storeImage(ctx.config.dataDir, STORE_LOGO_AREA, logo!));
    for (const document of processedDocuments) savedDocuments.push(await storeImage(ctx.config.dataDir, STORE_DOCUMENT_AREA, document));
    const storeId = newStoreId();
    await inTransaction(ctx.db, async (trx) => {
      await assertTpinNotLocked(trx, account.id);
      const store = await trx
        .insertInto('stores')
        .values({
          storeId,
          accountId: account.id,
          createdBy: callerId,
          storeName: fields.storeName,
          storeUrl: fields.storeURL,
          callbackUrl: fields.callbackURL,
          logoStoredName: savedLogo[0]!.storedName,
          logoMimeType: savedLogo[0]!.mimeType,
          storeKeyEncrypted: encryptStoreKey(ctx.config.secretKey, newStoreKey()),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('storeDocuments')
        .values(savedDocuments.map((saved) => ({ storeId: store.id, storedName: saved.storedName, mimeType: saved.mimeType, sizeBytes: saved.sizeBytes })))
        .execute();
      await recordActivity(trx, account.id, 'Payment gateway store created', `${fields.storeName} (${storeId}) is waiting for approval`);
      await recordAudit(trx, { actorUserId: callerId, action: 'store.created', subjectType: 'store', subjectId: storeId, ip, details: { accountId: account.id } });
    });
    const created = await findStoreByPublicId(ctx.db, storeId);
    if (!created) throw new Error('the new store was not found');
    return storeView(ctx, created);
  } catch (error) {
    await removeStoreImages(ctx.config.dataDir, STORE_LOGO_AREA, savedLogo.map((saved) => saved.storedName));
    await removeStoreImages(ctx.config.dataDir, STORE_DOCUMENT_AREA, savedDocuments.map((saved) => saved.storedName));
    throw error;
  }
}

/** GET /v1/payment_gateway_store/account/{accountEmail}: the owner's stores and the counters. */
export async function listStores(ctx: AppContext, callerId: string, accountEmail: string): Promise<StoreListView> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountEmail);
  if (!account) throw refuse('account_not_found');
  const [rows, counters, transactions, refunds] = await Promise.all([
    listAccountStores(ctx.db, account.id),
    accountPaymentCounters(ctx.db, account.id),
    countAccountTransactions(ctx.db, account.id),
    accountRefundCounters(ctx.db, account.id),
  ]);
  return {
    stores: rows.map((row) => storeView(ctx, row)),
    // Total Refund: the refunds of the account's gateway payments that succeeded (issue 23), and their sum.
    counters: {
      totalPayments: counters.total,
      totalSuccess: counters.success,
      totalTransactions: transactions,
      totalRefund: refunds.count,
      totalRefundAmount: centsToMajor(asCents(refunds.cents)),
    },
  };
}

/** GET /v1/payment_gateway_store/{storeId}: owner only; anyone else gets the same 404 as an unknown id. */
export async function getStore(ctx: AppContext, callerId: string, storeId: string): Promise<StoreView> {
  const row = await findOwnedStore(ctx.db, callerId, storeId);
  if (!row) throw refuse('store_not_found');
  return storeView(ctx, row);
}

/** GET /v1/store-logos/{name}: logos are public (the checkout shows them). */
export async function readStoreLogo(ctx: AppContext, storedName: string) {
  const row = await ctx.db.selectFrom('stores').select(['logoStoredName', 'logoMimeType']).where('logoStoredName', '=', storedName).executeTakeFirst();
  if (!row) throw refuse('image_not_found');
  const bytes = await readFile(storedUploadPath(uploadDirectory(ctx.config.dataDir, STORE_LOGO_AREA), row.logoStoredName)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw refuse('image_not_found');
    throw error;
  });
  return { bytes, mimeType: row.logoMimeType };
}

/** GET /v1/operator/stores?status=: stores by status, oldest first (operators only). */
export async function listStoresForReview(ctx: AppContext, status: StoreStatus): Promise<StoreReviewView[]> {
  const rows = await listStoresByStatus(ctx.db, status);
  const documents = await storeDocumentsOf(ctx.db, rows.map((row) => row.id));
  return rows.map((row) => {
    const { storeKey: _hidden, previousStoreKey: _hiddenToo, ...view } = storeView(ctx, row);
    return {
      ...view,
      documents: documents
        .filter((document) => document.storeId === row.id)
        .map((document) => ({ _id: document.id, url: `/v1/operator/stores/${row.storeId}/documents/${document.id}` })),
    };
  });
}

/** GET /v1/operator/stores/{storeId}/documents/{documentId}: a business document, for operators only. */
export async function readStoreDocument(ctx: AppContext, storeId: string, documentId: string) {
  const document = isUuid(documentId) ? await findStoreDocument(ctx.db, storeId, documentId) : undefined;
  if (!document) throw refuse('document_not_found');
  const bytes = await readFile(storedUploadPath(uploadDirectory(ctx.config.dataDir, STORE_DOCUMENT_AREA), document.storedName)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw refuse('document_not_found');
    throw error;
  });
  return { bytes, mimeType: document.mimeType };
}

/** The operator's store decisions: from which status, to which, and what the owner and the audit log are told. */
const STORE_MOVES = {
  approve: { from: 'Pending', to: 'Approved', notFrom: storeMessages.notPending, activity: 'Payment gateway store approved', audit: 'store.approved' },
  reject: { from: 'Pending', to: 'Rejected', notFrom: storeMessages.notPending, activity: 'Payment gateway store rejected', audit: 'store.rejected' },
  suspend: { from: 'Approved', to: 'Suspended', notFrom: storeMessages.notApproved, activity: 'Payment gateway store suspended', audit: 'store.suspended' },
  reinstate: { from: 'Suspended', to: 'Approved', notFrom: storeMessages.notSuspended, activity: 'Payment gateway store reinstated', audit: 'store.reinstated' },
} as const;
export type StoreDecision = keyof typeof STORE_MOVES;

/**
 * Operators approve or reject a Pending store, suspend an Approved one and reinstate a
 * Suspended one — one operator, never on their own store, always with a reason. Rejected and
 * Suspended keep the reason for the owner to see. Audited, and the owner gets an activity.
 */
export async function reviewStore(ctx: AppContext, operatorId: string, storeId: string, decision: StoreDecision, reason: string, ip: string): Promise<StoreView> {
  const move = STORE_MOVES[decision];
  await inTransaction(ctx.db, async (trx) => {
    const store = await trx.selectFrom('stores').select(['id', 'accountId', 'status', 'statusReason', 'storeName']).where('storeId', '=', storeId).forUpdate().executeTakeFirst();
    if (!store) throw refuse('store_not_found');
    await assertNotOwnAccount(trx, operatorId, store.accountId);
    if (store.status !== move.from) throw refuse(decision === 'approve' || decision === 'reject' ? 'store_not_pending' : 'store_status_conflict', { message: move.notFrom });
    const statusReason = move.to === 'Rejected' || move.to === 'Suspended' ? reason : null;
    await trx
      .updateTable('stores')
      .set({ status: move.to, statusReason, reviewedBy: operatorId, reviewedAt: new Date(), updatedAt: new Date() })
      .where('id', '=', store.id)
      .execute();
    const said: Record<StoreDecision, string> = {
      approve: `${store.storeName} (${storeId}) can now take payments`,
      reject: `${store.storeName} (${storeId}): ${reason}`,
      suspend: `${store.storeName} (${storeId}) cannot take payments until it is reinstated: ${reason}`,
      reinstate: `${store.storeName} (${storeId}) can take payments again`,
    };
    await recordActivity(trx, store.accountId, move.activity, said[decision]);
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: move.audit,
      subjectType: 'store',
      subjectId: storeId,
      ip,
      details: { reason, before: { status: store.status, statusReason: store.statusReason }, after: { status: move.to, statusReason } },
    });
  });
  const row = await findStoreByPublicId(ctx.db, storeId);
  if (!row) throw refuse('store_not_found');
  return storeView(ctx, row);
}

/**
 * POST /v1/payment_gateway_store/{storeId}/rotate-key: the owner (with the account's TPIN)
 * gets a new storeKey at once; the key it replaces keeps working for STORE_KEY_GRACE_HOURS
 * so the shop can switch without downtime. A key older than that is forgotten.
 */
export async function rotateStoreKey(ctx: AppContext, callerId: string, storeId: string, tpin: string, ip: string): Promise<StoreView> {
  const owned = await findOwnedStore(ctx.db, callerId, storeId);
  if (!owned) throw refuse('store_not_found');
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, owned.accountId);
  if (!account) throw refuse('store_not_found');
  await checkTpin(ctx.db, ctx.config.secretKey, account.id, tpin, callerId, account);
  await inTransaction(ctx.db, async (trx) => {
    const store = await trx.selectFrom('stores').select(['id', 'storeKeyEncrypted']).where('storeId', '=', storeId).forUpdate().executeTakeFirstOrThrow();
    const now = new Date();
    await trx
      .updateTable('stores')
      .set({
        storeKeyEncrypted: encryptStoreKey(ctx.config.secretKey, newStoreKey()),
        previousStoreKeyEncrypted: store.storeKeyEncrypted,
        previousStoreKeyExpiresAt: new Date(now.getTime() + STORE_KEY_GRACE_HOURS * 60 * 60 * 1000),
        storeKeyRotatedAt: now,
        updatedAt: now,
      })
      .where('id', '=', store.id)
      .execute();
    await recordActivity(trx, account.id, 'Store key rotated', `${owned.storeName} (${storeId}): the previous key works for ${STORE_KEY_GRACE_HOURS} more hours`);
    await recordAudit(trx, { actorUserId: callerId, action: 'store.key_rotated', subjectType: 'store', subjectId: storeId, ip, details: { graceHours: STORE_KEY_GRACE_HOURS } });
  });
  return getStore(ctx, callerId, storeId);
}

/**
 * PUT /v1/payment_gateway_store/{storeId}/payment-mails: the owner switches the store's "You
 * got paid" notices on or off (no TPIN: no money moves and the customer's receipt is not
 * affected). Audited, with an activity on the account; anyone else gets the usual 404.
 */
export async function setStorePaymentMails(ctx: AppContext, callerId: string, storeId: string, notifyOnPayment: boolean, ip: string): Promise<StoreView> {
  const owned = await findOwnedStore(ctx.db, callerId, storeId);
  if (!owned) throw refuse('store_not_found');
  if (owned.notifyOnPayment !== notifyOnPayment) {
    await inTransaction(ctx.db, async (trx) => {
      await trx.updateTable('stores').set({ notifyOnPayment, updatedAt: new Date() }).where('id', '=', owned.id).execute();
      await recordActivity(trx, owned.accountId, notifyOnPayment ? 'Payment e-mails on' : 'Payment e-mails off', `${owned.storeName} (${storeId})`);
      await recordAudit(trx, { actorUserId: callerId, action: 'store.payment_mails', subjectType: 'store', subjectId: storeId, ip, details: { notifyOnPayment } });
    });
  }
  return getStore(ctx, callerId, storeId);
}
