import { z } from 'zod';
import { STORE_STATUSES } from '../constants.ts';
import { messages } from '../messages.ts';
import { withExample } from '../contract-examples.ts';

/** The store pages' and the stores API's messages; the spec's are exact. */
export const storeMessages = {
  storeNameRequired: 'Store Name is required',
  storeUrlRequired: 'Store URL is required',
  callbackUrlRequired: 'Callback URL is required',
  tpinRequired: messages.tpin.required,
  tpinDigits: messages.tpin.fourDigits,
  logoRequired: 'Store Logo is required',
  documentsRequired: 'Business documents are required',
  imagesOnly: 'Only image files (JPEG, PNG, WebP or GIF) are accepted',
  oneLogo: 'Store Logo must be one image',
  tooLarge: 'Each image must be at most 5 MB',
  tooMany: 'At most 9 business documents can be uploaded',
  urlInvalid: 'Enter an http(s) URL, e.g. https://shop.example.com',
  callbackUrlPrivate: 'The callback URL must be a public address (not a private, loopback or link-local one)',
  created: 'Congratulations! Please wait for approval',
  failed: 'An error occurred',
  accountRequired: 'accountKey is required',
  notFound: 'Store not found',
  onlyApproved: 'You only allowed for approved store',
  noActiveStore: 'No Active Store Available. Click Here to Create New Payment Gateway Store',
  copied: 'Copied!',
  editComingSoon: 'Store update feature is coming soon',
  approved: 'Store approved',
  rejected: 'Store rejected',
  reasonRequired: 'A reason is required',
  notPending: 'Only a Pending store can be approved or rejected',
  suspended: 'Store suspended',
  reinstated: 'Store reinstated',
  notApproved: 'Only an Approved store can be suspended',
  notSuspended: 'Only a Suspended store can be reinstated',
  keyRotated: 'New store key created; the previous key keeps working until it expires',
  keyRotateOnlyApproved: 'Only an Approved store can rotate its key',
  paymentMailsOn: 'Payment e-mails are on: you get a mail each time this store is paid',
  paymentMailsOff: 'Payment e-mails are off for this store',
  paymentMailsChoice: 'notifyOnPayment must be true or false',
} as const;

export const storeStatus = z.enum(STORE_STATUSES);
export type StoreStatus = z.infer<typeof storeStatus>;

/** An http(s) URL, at most 2,000 characters. */
export const httpUrl = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(2000, storeMessages.urlInvalid)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, storeMessages.urlInvalid);

/** The text fields of POST /v1/payment_gateway_store/create (multipart); files are storeLogo and businessDocuments. */
export const createStoreFields = z.object({
  accountKey: z.string({ error: storeMessages.accountRequired }).trim().min(1, storeMessages.accountRequired).max(100),
  userId: z.string().optional(),
  tpin: withExample(z.string({ error: storeMessages.tpinRequired }).trim().min(1, storeMessages.tpinRequired).regex(/^\d{4}$/, storeMessages.tpinDigits), '4826'),
  storeName: z.string({ error: storeMessages.storeNameRequired }).trim().min(1, storeMessages.storeNameRequired).max(100),
  storeURL: httpUrl(storeMessages.storeUrlRequired),
  callbackURL: httpUrl(storeMessages.callbackUrlRequired),
});
export type CreateStoreFields = z.infer<typeof createStoreFields>;

/** The new store form (the files are checked separately: one logo, one or more documents). */
export const newStoreForm = createStoreFields.omit({ accountKey: true, userId: true });
export type NewStoreFormValues = z.infer<typeof newStoreForm>;

export const storeView = z.object({
  _id: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  storeLogo: z.string().describe('Public URL path of the logo'),
  storeURL: z.string(),
  callbackURL: z.string(),
  storeKey: z.string().describe("Shown to the store's owner only"),
  accountEmail: z.string(),
  accountNumber: z.string(),
  status: storeStatus,
  statusReason: z.string().nullable(),
  /** Set while the key replaced by the last rotation is still accepted (owner only). */
  previousStoreKey: z.string().nullable(),
  previousStoreKeyExpiresAt: z.string().nullable().describe('When the previous key stops being accepted'),
  storeKeyRotatedAt: z.string().nullable(),
  notifyOnPayment: z.boolean().describe('Whether the owner gets a "You got paid" notice (by the account\'s preference, e-mail or SMS) for each payment to this store'),
  createdAt: z.string(),
});
export type StoreView = z.infer<typeof storeView>;

/** The store list's counters: the owner account's real payments. */
export const storeCounters = z.object({
  totalPayments: z.number().int(),
  totalSuccess: z.number().int(),
  totalTransactions: z.number().int(),
  totalRefund: z.number().int().describe('How many refunds of the owner account\'s payments succeeded'),
  totalRefundAmount: z.number().describe('Their sum, major units'),
});
export type StoreCounters = z.infer<typeof storeCounters>;

export const storeListView = z.object({ stores: z.array(storeView), counters: storeCounters });
export type StoreListView = z.infer<typeof storeListView>;

export const storeIdParams = z.object({ storeId: z.string().min(1).max(100) });
export const accountEmailParams = z.object({ accountEmail: z.string().min(1).max(320) });

export const rejectStoreBody = z.object({ reason: z.string({ error: storeMessages.reasonRequired }).trim().min(1, storeMessages.reasonRequired).max(500) }).strict();
export type RejectStoreBody = z.infer<typeof rejectStoreBody>;

/** POST /v1/payment_gateway_store/{storeId}/rotate-key: the owner's TPIN for the store's account. */
export const rotateStoreKeyBody = z.object({
  tpin: withExample(z.string({ error: storeMessages.tpinRequired }).trim().min(1, storeMessages.tpinRequired).regex(/^\d{4}$/, storeMessages.tpinDigits), '4826'),
});
export type RotateStoreKeyBody = z.infer<typeof rotateStoreKeyBody>;

/** PUT /v1/payment_gateway_store/{storeId}/payment-mails: the owner switches the store's "You got paid" notices on or off. */
export const storePaymentMailsBody = z
  .object({
    notifyOnPayment: withExample(z.boolean({ error: storeMessages.paymentMailsChoice }), false),
  })
  .strict();
export type StorePaymentMailsBody = z.infer<typeof storePaymentMailsBody>;

export const storeReviewView = storeView.omit({ storeKey: true, previousStoreKey: true }).extend({
  documents: z.array(z.object({ _id: z.string(), url: z.string().describe('GET it with an operator token') })),
});
export type StoreReviewView = z.infer<typeof storeReviewView>;

export const callbackAttemptView = z.object({
  attemptedAt: z.string(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export const callbackDeliveryView = z.object({
  _id: z.string(),
  paymentId: z.string(),
  targetUrl: z.string(),
  body: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(callbackAttemptView),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CallbackDeliveryView = z.infer<typeof callbackDeliveryView>;

/** POST /v1/payment_gateway_store/{storeId}/callbacks/{deliveryId}/resend: the delivery queued again. */
export const resentDelivery = z.object({ _id: z.string() });
export type ResentDelivery = z.infer<typeof resentDelivery>;
