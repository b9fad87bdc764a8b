import { describe, expect, it } from 'vitest';
import { completeAccountForm, completeAccountFormToBody, createAccountBody } from './accounts.ts';

const form = {
  accountType: 'business',
  accountHolderName: 'Bea Reader',
  businessName: "Bea's Books",
  companyName: 'Bea Books LLC',
  accountEmail: 'Bea@Example.com',
  accountPhone: '+1 555 010 0042',
  userName: 'bea.books',
  dateOfBirth: '1990-01-31',
  country: 'US',
  city: 'Portland',
  state: 'OR',
  street: '1 Main St',
  zipCode: '97201',
  currency: 'USD',
  notificationPreference: 'sms',
  occupation: 'Bookseller',
  annualIncome: '60000',
  identityType: 'tradeLicense',
  identityNumber: 'TL-1',
  tpin: '0123',
};

describe('complete-account form', () => {
  it('maps to a create body that the API schema accepts, with the spec fees', () => {
    const parsed = completeAccountForm.parse(form);
    const body = createAccountBody.parse(completeAccountFormToBody(parsed, 'user-1'));
    expect(body).toMatchObject({
      users: [{ userId: 'user-1', tpin: '0123' }],
      accountEmail: 'bea@example.com',
      accountPhone: '+15550100042',
      identity: { type: 'tradeLicense', number: 'TL-1' },
      address: { street: '1 Main St', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US' },
      balance: [{ currency: 'USD' }],
      gatewayFee: { fixed: 0, percentage: 2 },
      paymentRequestFee: { fixed: 0, percentage: 2 },
    });
  });

  it("sends a personal account's companyName and businessName empty, as the spec's payload lists them", () => {
    const parsed = completeAccountForm.parse({ ...form, accountType: 'personal', businessName: '', companyName: '' });
    const body = completeAccountFormToBody(parsed, 'user-1');
    expect(body).toMatchObject({ accountType: 'personal', companyName: '', businessName: '' });
    // The API takes them as absent.
    expect(createAccountBody.parse(body)).toMatchObject({ companyName: undefined, businessName: undefined });
  });

  it('shows every message at once, business names included', () => {
    const result = completeAccountForm.safeParse({ accountType: 'business' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
    expect(byField).toMatchObject({
      accountHolderName: 'Account holder full name is required',
      businessName: 'Business name is required',
      companyName: 'Company name is required',
      tpin: 'TPIN is required',
      dateOfBirth: 'Date of birth is required',
    });
    const personal = completeAccountForm.safeParse({ ...form, accountType: 'personal', businessName: '', companyName: '' });
    expect(personal.success).toBe(true);
    expect(completeAccountForm.safeParse({ ...form, accountType: undefined }).error!.issues[0]!.message).toBe('Account type is required!');
  });
});
