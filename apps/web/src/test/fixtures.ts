import { accountView, paymentView, refundView, userProfile, type Account, type PaymentView, type RefundView, type UserProfile } from '@kestrel/shared';
import { signedIn } from './render.tsx';

/**
 * The signed-in holder's account as GET /v1/account/{key} answers it, checked against the
 * contract so a stub cannot drift from what the server sends. `balance` in major units.
 */
export function accountFixture(overrides: Partial<Account> = {}): Account {
  return accountView.parse({
    _id: 'acc-1',
    accountNumber: signedIn.account.accountNumber,
    accountType: 'personal',
    accountHolderName: 'Ada Lovelace',
    businessName: null,
    userName: signedIn.account.userName,
    companyName: null,
    accountEmail: signedIn.account.accountEmail,
    accountPhone: '+15550001111',
    createdAt: '2026-11-01T10:00:00.000Z',
    balance: [{ currency: 'USD', amount: 250.5 }],
    identity: { type: 'nid', number: 'N123', isVerified: true },
    identityImages: [],
    users: [{ userId: signedIn.userId }],
    dateOfBirth: '1990-01-01',
    address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'US' },
    notificationPreference: 'email',
    occupation: 'Engineer',
    annualIncome: '50000',
    gatewayFee: { fixed: 0, percentage: 2 },
    paymentRequestFee: { fixed: 0, percentage: 2 },
    ...overrides,
  });
}

/**
 * A payment into the signed-in holder's store as GET /v1/payment/paymentId/{id} answers it,
 * checked against the contract. By default a card payment of US$ 100.00 (fee US$ 2.00), paid,
 * nothing refunded yet; `refundFixture` makes its refunds.
 */
export function paymentFixture(overrides: Partial<PaymentView> = {}): PaymentView {
  return paymentView.parse({
    _id: 'pay-1',
    paymentId: 'pay-1',
    paymentStatus: 'success',
    paymentSourceType: 'card',
    paymentSource: { type: 'card', brand: 'visa', number: '424242******4242', expiresIn: '12/34', billingInfo: null },
    amount: 100,
    currency: 'USD',
    fee: { amount: 2, currency: 'USD' },
    orderId: 'order-1',
    customerName: 'Dana Doe',
    customerEmail: 'dana@example.test',
    customerPhone: '+15550100009',
    customerAddress: '1 Main Street',
    productName: 'Bike',
    cancelUrl: 'https://shop.example.test/cart',
    valueA: null,
    urlId: 'url-1',
    transactionId: 'TX1',
    paymentErrors: [],
    storeId: 'S1',
    storeName: 'Corner Shop',
    accountKey: signedIn.account.accountNumber,
    createdAt: '2026-11-20T10:00:00.000Z',
    paidAt: '2026-11-20T10:01:00.000Z',
    refunds: [],
    amountRefunded: 0,
    amountRefundable: 100,
    refundState: null,
    ...overrides,
  });
}

export function refundFixture(overrides: Partial<RefundView> = {}): RefundView {
  return refundView.parse({
    refundId: 'ref-1',
    paymentId: 'pay-1',
    amount: 30,
    currency: 'USD',
    fee: { amount: 0.6, currency: 'USD' },
    status: 'succeeded',
    reason: 'Wrong size',
    initiatedBy: { kind: 'owner', name: signedIn.account.userName },
    destination: { type: 'card', number: '424242******4242' },
    transactionId: 'TX2',
    failureReason: null,
    createdAt: '2026-11-21T09:00:00.000Z',
    completedAt: '2026-11-21T09:00:01.000Z',
    ...overrides,
  });
}

/**
 * The signed-in holder as GET /v1/user/{userId} answers it (what the portal gate hands its
 * pages through PortalUserContext), checked against the contract.
 */
export function userProfileFixture(overrides: Partial<UserProfile> = {}): UserProfile {
  return userProfile.parse({
    _id: signedIn.userId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: signedIn.account.accountEmail,
    contactNumber: '+15550001111',
    isEmailVerified: true,
    isAccountHolder: true,
    isOperator: false,
    accounts: [
      { _id: 'acc-1', accountNumber: signedIn.account.accountNumber, accountType: 'personal', accountHolderName: 'Ada Lovelace', businessName: null, userName: signedIn.account.userName, accountEmail: signedIn.account.accountEmail },
    ],
    createdAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  });
}
