import { z } from 'zod';
import { ACCOUNT_TYPES, CURRENCIES, IDENTITY_TYPES, MINIMUM_AGE_YEARS, NOTIFICATION_PREFERENCES, TPIN_LENGTH } from '../constants.ts';
import { ageInYears } from '../dates.ts';
import { messages } from '../messages.ts';
import { emailAddress } from './auth.ts';
import { currencyCode, majorUnits } from './common.ts';
import { withExample } from '../contract-examples.ts';

const m = messages;

/**
 * The complete-account form's labels. Every required-field message is '{label} is required'
 * (document 1, section 5), so the form shows these labels and the API answers with them.
 */
export const accountFieldLabels = {
  accountType: 'Account type',
  accountHolderName: 'Account holder full name',
  businessName: 'Business name',
  companyName: 'Company name',
  accountEmail: 'Email',
  accountPhone: 'Phone',
  userName: 'Username',
  dateOfBirth: 'Date of birth',
  country: 'Country',
  city: 'City',
  state: 'State',
  street: 'Street',
  zipCode: 'Zip code',
  currency: 'Currency',
  notificationPreference: 'Notification preference',
  occupation: 'Occupation',
  annualIncome: 'Annual income',
  identityType: 'Identification type',
  identityNumber: 'Identification number',
  tpin: 'TPIN',
  identityImage: 'Identity images',
} as const;
export type AccountField = keyof typeof accountFieldLabels;

export const requiredMessage = (field: AccountField) => `${accountFieldLabels[field]} is required`;

/** User names appear in URLs (GET /v1/account/{userName}); these would collide with fixed paths. */
const RESERVED_USER_NAMES = new Set(['search', 'create', 'transfer_balance', 'upload-image', 'me']);

const requiredText = (field: AccountField, max = 200) =>
  z
    .string({ error: requiredMessage(field) })
    .trim()
    .min(1, requiredMessage(field))
    .max(max, `${accountFieldLabels[field]} must be at most ${max} characters`);

/** An enum whose missing value reads '{label} is required' and whose unknown value says what is allowed. */
const requiredChoice = <const T extends readonly [string, ...string[]]>(field: AccountField, values: T, required = requiredMessage(field)) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? required
        : `${accountFieldLabels[field]} must be one of: ${values.join(', ')}`,
  });

export const accountTypeField = requiredChoice('accountType', ACCOUNT_TYPES, m.account.typeRequired);
export const accountHolderNameField = requiredText('accountHolderName', 100);
export const accountEmailField = emailAddress(requiredMessage('accountEmail'));
export const accountPhoneField = withExample(
  z
    .string({ error: requiredMessage('accountPhone') })
    .trim()
    .min(1, requiredMessage('accountPhone'))
    .regex(/^\+?[0-9][0-9 -]{5,18}[0-9]$/, m.signup.phoneInvalid),
  '+15550100002',
).transform((value) => value.replace(/[ -]/g, ''));
export const userNameField = z
  .string({ error: requiredMessage('userName') })
  .trim()
  .min(1, requiredMessage('userName'))
  .regex(/^[A-Za-z][A-Za-z0-9._-]{2,29}$/, m.account.userNameFormat)
  .refine((value) => !RESERVED_USER_NAMES.has(value.toLowerCase()), m.account.userNameReserved);
withExample(userNameField, 'ada.lovelace');
export const dateOfBirthField = z
  .string({ error: requiredMessage('dateOfBirth') })
  .trim()
  .min(1, requiredMessage('dateOfBirth'))
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.account.dateOfBirthInvalid)
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    // Rejects 2001-02-30 and the like: the parsed date must print back the same.
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && ageInYears(value) <= 130;
  }, m.account.dateOfBirthInvalid)
  .refine((value) => ageInYears(value) >= MINIMUM_AGE_YEARS, m.account.tooYoung);
withExample(dateOfBirthField, '1990-04-12');
export const currencyField = requiredChoice('currency', CURRENCIES);
export const notificationPreferenceField = requiredChoice('notificationPreference', NOTIFICATION_PREFERENCES);
export const identityTypeField = requiredChoice('identityType', IDENTITY_TYPES);
export const identityNumberField = requiredText('identityNumber', 50);
/** The new account's TPIN: digits only, exactly 4 (the form caps the input at 4 characters). */
export const newTpinField = z
  .string({ error: requiredMessage('tpin') })
  .min(1, requiredMessage('tpin'))
  .regex(/^\d+$/, m.account.tpinDigits)
  .length(TPIN_LENGTH, m.tpin.fourDigits);
withExample(newTpinField, '4826');

/**
 * Business name and company name are asked (and required) only for business accounts.
 * These refinements run even when other fields failed, so the form shows every message at once.
 */
function withBusinessNames<T extends z.ZodType<{ accountType?: unknown; businessName?: unknown; companyName?: unknown }>>(schema: T) {
  const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;
  const missing = (value: unknown) => typeof value !== 'string' || value.trim() === '';
  return schema
    .refine((value) => value.accountType !== 'business' || !missing(value.businessName), {
      message: requiredMessage('businessName'),
      path: ['businessName'],
      when: isObject,
    })
    .refine((value) => value.accountType !== 'business' || !missing(value.companyName), {
      message: requiredMessage('companyName'),
      path: ['companyName'],
      when: isObject,
    });
}

const optionalName = (field: AccountField) =>
  z
    .string()
    .trim()
    .max(100, `${accountFieldLabels[field]} must be at most 100 characters`)
    .optional()
    .nullable()
    .transform((value) => value || undefined);

/** Fees are set by Kestrel (fixed 0, percentage 2); whatever a client sends here is ignored. */
const clientFee = z
  .object({ fixed: z.union([z.number(), z.string()]).optional(), percentage: z.union([z.number(), z.string()]).optional() })
  .optional()
  .describe('Ignored: new accounts always get fixed 0, percentage 2');

/** POST /v1/account/create body: the spec's call (document 1, section 7). */
export const createAccountBody = withBusinessNames(
  z.object({
    users: z
      .array(
        z.object({
          userId: z.string({ error: 'userId is required' }).min(1, 'userId is required').max(100),
          tpin: newTpinField,
        }),
        { error: requiredMessage('tpin') },
      )
      .min(1, requiredMessage('tpin'))
      .max(1, m.account.oneOwner),
    accountHolderName: accountHolderNameField,
    userName: userNameField,
    accountEmail: accountEmailField,
    accountPhone: accountPhoneField,
    accountType: accountTypeField,
    companyName: optionalName('companyName'),
    businessName: optionalName('businessName'),
    identity: z.object(
      { type: identityTypeField, number: identityNumberField },
      { error: requiredMessage('identityNumber') },
    ),
    dateOfBirth: dateOfBirthField,
    address: z.object(
      {
        street: requiredText('street'),
        city: requiredText('city', 100),
        state: requiredText('state', 100),
        zipCode: requiredText('zipCode', 20),
        country: requiredText('country', 100),
      },
      { error: requiredMessage('country') },
    ),
    balance: z
      .array(z.object({ currency: currencyField }), { error: requiredMessage('currency') })
      .min(1, requiredMessage('currency'))
      .max(CURRENCIES.length, m.account.currencyOnce)
      .refine((list) => new Set(list.map((entry) => entry.currency)).size === list.length, m.account.currencyOnce),
    notificationPreference: notificationPreferenceField,
    occupation: requiredText('occupation', 100),
    annualIncome: requiredText('annualIncome', 50),
    gatewayFee: clientFee,
    paymentRequestFee: clientFee,
  }).strict(),
);
export type CreateAccountBody = z.infer<typeof createAccountBody>;
export type CreateAccountInput = z.input<typeof createAccountBody>;

/**
 * The complete-account form ('Complete Your ... Account') as the web page holds it: flat, one
 * entry per input. Identity images are files, checked by the browser (images only, at least
 * one) and then sent to PATCH /v1/account/upload-image after the account exists.
 */
export const completeAccountForm = withBusinessNames(
  z.object({
    accountType: accountTypeField,
    accountHolderName: accountHolderNameField,
    businessName: z.string().trim().optional(),
    companyName: z.string().trim().optional(),
    accountEmail: accountEmailField,
    accountPhone: accountPhoneField,
    userName: userNameField,
    dateOfBirth: dateOfBirthField,
    country: requiredText('country', 100),
    city: requiredText('city', 100),
    state: requiredText('state', 100),
    street: requiredText('street'),
    zipCode: requiredText('zipCode', 20),
    currency: currencyField,
    notificationPreference: notificationPreferenceField,
    occupation: requiredText('occupation', 100),
    annualIncome: requiredText('annualIncome', 50),
    identityType: identityTypeField,
    identityNumber: identityNumberField,
    tpin: newTpinField,
  }),
);
export type CompleteAccountFormValues = z.infer<typeof completeAccountForm>;

/** The spec's fees at account creation; the server stores these whatever is sent. */
const SPEC_FEE = { fixed: 0, percentage: 2 };

/** Turns the parsed form into the spec's POST /v1/account/create body. */
export function completeAccountFormToBody(form: CompleteAccountFormValues, userId: string): CreateAccountInput {
  const business = form.accountType === 'business';
  return {
    users: [{ userId, tpin: form.tpin }],
    accountHolderName: form.accountHolderName,
    userName: form.userName,
    accountEmail: form.accountEmail,
    accountPhone: form.accountPhone,
    accountType: form.accountType,
    // The spec's payload lists both for every account: empty for a personal one.
    companyName: business ? form.companyName : '',
    businessName: business ? form.businessName : '',
    identity: { type: form.identityType, number: form.identityNumber },
    dateOfBirth: form.dateOfBirth,
    address: { street: form.street, city: form.city, state: form.state, zipCode: form.zipCode, country: form.country },
    balance: [{ currency: form.currency }],
    notificationPreference: form.notificationPreference,
    occupation: form.occupation,
    annualIncome: form.annualIncome,
    gatewayFee: SPEC_FEE,
    paymentRequestFee: SPEC_FEE,
  };
}

/**
 * Where a server field error (keyed by the body's path, e.g. 'address.city' or
 * 'identity.number') belongs on the flat form.
 */
export const accountBodyFieldToFormField: Record<string, keyof CompleteAccountFormValues> = {
  'users.0.tpin': 'tpin',
  'address.street': 'street',
  'address.city': 'city',
  'address.state': 'state',
  'address.zipCode': 'zipCode',
  'address.country': 'country',
  'identity.type': 'identityType',
  'identity.number': 'identityNumber',
  'balance.0.currency': 'currency',
  balance: 'currency',
};

/** PATCH /v1/account/upload-image text fields (the files travel as identityImage parts). */
export const uploadIdentityImageFields = z
  .object({
    accountId: z.string().trim().max(100).optional(),
    accountNumber: z.string().trim().max(32).optional(),
  })
  .refine((fields) => Boolean(fields.accountId || fields.accountNumber), { message: m.account.uploadAccountRequired, path: ['accountId'] });
export type UploadIdentityImageFields = z.infer<typeof uploadIdentityImageFields>;

// ---- Responses ----

const fee = z.object({ fixed: majorUnits.describe('US$, major units'), percentage: z.number() });

export const identityImage = z.object({
  _id: z.string(),
  url: z.string().describe('Path of GET /v1/account/{accountId}/identity-images/{imageId}; send the Authorization header'),
  createdAt: z.string(),
});
export type IdentityImage = z.infer<typeof identityImage>;
export const identityImageList = z.array(identityImage);

export const balanceEntry = z.object({ currency: currencyCode, amount: majorUnits });
export type Balance = z.infer<typeof balanceEntry>;

/** What names an account to people: the fields every account-shaped answer starts with. */
export const accountIdentity = z.object({
  _id: z.string(),
  accountNumber: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  accountHolderName: z.string(),
  businessName: z.string().nullable(),
  userName: z.string(),
});

/** GET /v1/account/{accountId | accountNumber | userName}: the spec's Account, owner only. */
export const accountView = accountIdentity.extend({
  companyName: z.string().nullable(),
  accountEmail: z.string(),
  accountPhone: z.string(),
  createdAt: z.string(),
  balance: z.array(balanceEntry),
  identity: z.object({ type: z.enum(IDENTITY_TYPES), number: z.string(), isVerified: z.boolean() }),
  identityImages: identityImageList,
  users: z.array(z.object({ userId: z.string() })),
  dateOfBirth: z.string().describe('YYYY-MM-DD'),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), zipCode: z.string(), country: z.string() }),
  notificationPreference: z.enum(NOTIFICATION_PREFERENCES),
  occupation: z.string(),
  annualIncome: z.string(),
  gatewayFee: fee,
  paymentRequestFee: fee,
});
export type Account = z.infer<typeof accountView>;
export type IdentityType = Account['identity']['type'];
export type NotificationPreference = Account['notificationPreference'];

/** POST /v1/account/create answers these four. */
export const createdAccount = z.object({ _id: z.string(), accountNumber: z.string(), accountEmail: z.string(), userName: z.string() });
export type CreatedAccount = z.infer<typeof createdAccount>;

/** GET /v1/account/{key}/summary: the dashboard's counters. */
export const accountCounters = z.object({
  totalPayments: z.number().int(),
  successPayments: z.number().int(),
  totalWithdraw: z.number().int(),
  totalTransactions: z.number().int(),
});
export type AccountCounters = z.infer<typeof accountCounters>;

export const accountKeyParams = z.object({ key: z.string().min(1).max(100).describe('Account id, account number or user name') });
export const identityImageParams = z.object({ accountId: z.string().max(100), imageId: z.string().max(100) });
