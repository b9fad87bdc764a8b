import { readFile } from 'node:fs/promises';
import { storeMessages, type CreateStoreFields, type StoreListView, type StoreReviewView, type StoreView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/multipart.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { countAccountTransactions } from '../accounts/accounts.repository.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { recordActivity } from '../activities/activities.repository.ts';
import { recordAudit } from '../audit/audit.ts';
import { storedUploadPath, uploadDirectory } from '../uploads/uploads.ts';
import { decryptStoreKey, encryptStoreKey, newStoreId, newStoreKey } from './store-key.ts';
import { checkStoreImage, removeStoreImages, STORE_DOCUMENT_AREA, STORE_LOGO_AREA, storeImage, type StoredImage } from './store-images.ts';
import {
  accountPaymentCounters,
  findOwnedStore,
  findStoreByPublicId,
  findStoreDocument,
  listAccountStores,
  listStoresByStatus,
  storeDocumentsOf,
  type StoreRow,
} from './stores.repository.ts';

export const MAX_BUSINESS_DOCUMENTS = 9;

export const storeLogoUrl = (storedName: string) => `/v1/store-logos/${storedName}`;

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
    createdAt: row.createdAt.toISOString(),
  };
}

async function checkImages(files: UploadedFile[], field: string) {
  const checked = [];
  for (const file of files) {
    const type = await checkStoreImage(file);
    if (!type) throw badRequest(`${storeMessages.imagesOnly}: '${file.fileName}' is not an image`, { [field]: storeMessages.imagesOnly }, 'not_an_image');
    checked.push({ file, type });
  }
  return checked;
}

/**
 * POST /v1/payment_gateway_store/create. Everything is checked (ownership, files by content,
 * then the TPIN with its lockout) before anything is stored; the images are written under
 * random names and recorded with the store in one transaction (removed again if it fails).
 */
export async function createStore(ctx: AppContext, callerId: string, fields: CreateStoreFields, files: UploadedFile[], ip: string): Promise<StoreView> {
  if (fields.userId !== undefined && fields.userId !== '' && fields.userId !== callerId) throw forbidden('You can only create a store for your own account');
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, fields.accountKey);
  if (!account) throw notFound('Account not available!', 'account_not_found');

  const logos = files.filter((file) => file.fieldName === 'storeLogo');
  const documents = files.filter((file) => file.fieldName !== 'storeLogo');
  if (logos.length === 0) throw badRequest(storeMessages.logoRequired, { storeLogo: storeMessages.logoRequired }, 'store_logo_required');
  if (logos.length > 1) throw badRequest(storeMessages.oneLogo, { storeLogo: storeMessages.oneLogo }, 'store_logo_one');
  if (documents.length === 0) throw badRequest(storeMessages.documentsRequired, { businessDocuments: storeMessages.documentsRequired }, 'business_documents_required');
  if (documents.length > MAX_BUSINESS_DOCUMENTS) throw badRequest(storeMessages.tooMany, { businessDocuments: storeMessages.tooMany }, 'too_many_files');
  const [logo] = await checkImages(logos, 'storeLogo');
  const checkedDocuments = await checkImages(documents, 'businessDocuments');

  await checkTpin(ctx.db, ctx.config.secretKey, account.id, fields.tpin, callerId, account);

  const savedLogo: StoredImage[] = [];
  const savedDocuments: StoredImage[] = [];
  try {
    savedLogo.push(await storeImage(ctx.config.dataDir, STORE_LOGO_AREA, logo!.file, logo!.type));
    for (const { file, type } of checkedDocuments) savedDocuments.push(await storeImage(ctx.config.dataDir, STORE_DOCUMENT_AREA, file, type));
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
  if (!account) throw notFound('Account not available!', 'account_not_found');
  const [rows, counters, transactions] = await Promise.all([
    listAccountStores(ctx.db, account.id),
    accountPaymentCounters(ctx.db, account.id),
    countAccountTransactions(ctx.db, account.id),
  ]);
  return {
    stores: rows.map((row) => storeView(ctx, row)),
    // Refunds do not exist yet, so the refund counter is truly 0.
    counters: { totalPayments: counters.total, totalSuccess: counters.success, totalTransactions: transactions, totalRefund: 0 },
  };
}

/** GET /v1/payment_gateway_store/{storeId}: owner only; anyone else gets the same 404 as an unknown id. */
export async function getStore(ctx: AppContext, callerId: string, storeId: string): Promise<StoreView> {
  const row = await findOwnedStore(ctx.db, callerId, storeId);
  if (!row) throw notFound(storeMessages.notFound, 'store_not_found');
  return storeView(ctx, row);
}

/** GET /v1/store-logos/{name}: logos are public (the checkout shows them). */
export async function readStoreLogo(ctx: AppContext, storedName: string) {
  const row = await ctx.db.selectFrom('stores').select(['logoStoredName', 'logoMimeType']).where('logoStoredName', '=', storedName).executeTakeFirst();
  if (!row) throw notFound('Image not found', 'image_not_found');
  const bytes = await readFile(storedUploadPath(uploadDirectory(ctx.config.dataDir, STORE_LOGO_AREA), row.logoStoredName)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw notFound('Image not found', 'image_not_found');
    throw error;
  });
  return { bytes, mimeType: row.logoMimeType };
}

/** GET /v1/operator/stores?status=: stores by status, oldest first (operators only). */
export async function listStoresForReview(ctx: AppContext, status: 'Pending' | 'Approved' | 'Rejected'): Promise<StoreReviewView[]> {
  const rows = await listStoresByStatus(ctx.db, status);
  const documents = await storeDocumentsOf(ctx.db, rows.map((row) => row.id));
  return rows.map((row) => {
    const { storeKey: _hidden, ...view } = storeView(ctx, row);
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
  if (!document) throw notFound('Document not found', 'document_not_found');
  const bytes = await readFile(storedUploadPath(uploadDirectory(ctx.config.dataDir, STORE_DOCUMENT_AREA), document.storedName)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw notFound('Document not found', 'document_not_found');
    throw error;
  });
  return { bytes, mimeType: document.mimeType };
}

/**
 * Operators approve or reject a Pending store (a rejection needs a reason, shown to the
 * owner). Audited, and the owner gets an activity.
 */
export async function reviewStore(
  ctx: AppContext,
  operatorId: string,
  storeId: string,
  decision: { status: 'Approved' } | { status: 'Rejected'; reason: string },
  ip: string,
): Promise<StoreView> {
  await inTransaction(ctx.db, async (trx) => {
    const store = await trx.selectFrom('stores').select(['id', 'accountId', 'status', 'storeName']).where('storeId', '=', storeId).forUpdate().executeTakeFirst();
    if (!store) throw notFound(storeMessages.notFound, 'store_not_found');
    if (store.status !== 'Pending') throw new AppError(409, 'store_not_pending', storeMessages.notPending);
    const reason = decision.status === 'Rejected' ? decision.reason : null;
    await trx
      .updateTable('stores')
      .set({ status: decision.status, statusReason: reason, reviewedBy: operatorId, reviewedAt: new Date(), updatedAt: new Date() })
      .where('id', '=', store.id)
      .execute();
    await recordActivity(
      trx,
      store.accountId,
      decision.status === 'Approved' ? 'Payment gateway store approved' : 'Payment gateway store rejected',
      decision.status === 'Approved' ? `${store.storeName} (${storeId}) can now take payments` : `${store.storeName} (${storeId}): ${reason}`,
    );
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: decision.status === 'Approved' ? 'store.approved' : 'store.rejected',
      subjectType: 'store',
      subjectId: storeId,
      ip,
      details: reason ? { reason } : {},
    });
  });
  const row = await findStoreByPublicId(ctx.db, storeId);
  if (!row) throw notFound(storeMessages.notFound, 'store_not_found');
  return storeView(ctx, row);
}
