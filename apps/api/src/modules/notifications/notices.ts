import { asCents, asCurrency, formatMoney, maskBankAccountNumber, type WithdrawalStatus } from '@kestrel/shared';
import type { AccountContactRow } from '../accounts/accounts.service.ts';
import { formatMailDate, maskedCard, maskedWallet, type Notice } from '../mail/templates.ts';
import type { PaidPaymentNoticeRow } from '../payments/payments.service.ts';
import type { LinkPaymentNoticeRow } from '../payment-requests/payment-requests.service.ts';
import type { WithdrawalNoticeRow } from '../withdrawals/withdrawals.service.ts';

/*
 * What each notice says (README, "The e-mails Kestrel sends"), from the rows the dispatcher
 * read. Pure functions: the words are tested without a database. Money is written as the
 * spec writes it ("US$ 1,234.50", formatMoney), dates in UTC (formatMailDate).
 */

/** The name a notice greets an account by: a business by its business name. */
export function accountName(account: Pick<AccountContactRow, 'accountType' | 'accountHolderName' | 'businessName'>): string {
  return account.accountType === 'business' && account.businessName ? account.businessName : account.accountHolderName;
}

const money = (cents: number, currency: string) => formatMoney(asCents(cents), asCurrency(currency));

function accountFooter(account: AccountContactRow): string {
  return `You get this because Kestrel account ${account.accountNumber} sends its notifications to ${account.accountEmail} (its notification preference is e-mail).`;
}

const suspicious = 'If you did not do this, change your password and TPIN now and contact Kestrel support.';

export interface TransferFacts {
  transactionId: string;
  currency: string;
  amountCents: number;
  createdAt: Date;
}

export function transferSentNotice(transfer: TransferFacts, from: AccountContactRow, to: AccountContactRow, publicUrl: string): Notice {
  const amount = money(transfer.amountCents, transfer.currency);
  const recipient = accountName(to);
  return {
    subject: `You sent ${amount} to ${recipient}`,
    headline: `You sent ${amount} to ${recipient}`,
    name: accountName(from),
    intro: [`The money has left your Kestrel account ${from.accountNumber} and is in ${recipient}'s account now.`],
    details: [
      { label: 'Amount', value: amount },
      { label: 'To', value: `${recipient} (${to.accountNumber})` },
      { label: 'From', value: `Your account ${from.accountNumber}` },
      { label: 'Transaction ID', value: transfer.transactionId },
      { label: 'Date', value: formatMailDate(transfer.createdAt) },
    ],
    action: { label: 'See your transactions', url: `${publicUrl}/transactions` },
    outro: [suspicious],
    footer: accountFooter(from),
    sms: `You sent ${amount} to ${recipient} (${to.accountNumber}). Transaction ${transfer.transactionId}.`,
  };
}

export function transferReceivedNotice(transfer: TransferFacts, from: AccountContactRow, to: AccountContactRow, publicUrl: string): Notice {
  const amount = money(transfer.amountCents, transfer.currency);
  const sender = accountName(from);
  return {
    subject: `You received ${amount} from ${sender}`,
    headline: `You received ${amount} from ${sender}`,
    name: accountName(to),
    intro: [`${sender} sent you money. It is in your Kestrel account ${to.accountNumber} and ready to use.`],
    details: [
      { label: 'Amount', value: amount },
      { label: 'From', value: `${sender} (${from.accountNumber})` },
      { label: 'To', value: `Your account ${to.accountNumber}` },
      { label: 'Transaction ID', value: transfer.transactionId },
      { label: 'Date', value: formatMailDate(transfer.createdAt) },
    ],
    action: { label: 'See your transactions', url: `${publicUrl}/transactions` },
    footer: accountFooter(to),
    sms: `You received ${amount} from ${sender} (${from.accountNumber}). Transaction ${transfer.transactionId}.`,
  };
}

function paidWith(sourceType: string | null, brand: string | null, last4: string | null): string {
  return sourceType === 'wallet' ? maskedWallet(last4) : maskedCard(brand, last4);
}

/** The customer's receipt for a store's checkout (or direct) payment. */
export function paymentReceiptNotice(payment: PaidPaymentNoticeRow): Notice {
  const amount = money(payment.amountCents, payment.currency);
  return {
    subject: `Your receipt from ${payment.storeName}`,
    headline: `You paid ${amount} to ${payment.storeName}`,
    name: payment.customerName || null,
    intro: [`Thank you for your payment. Keep this mail as your receipt.`],
    details: [
      { label: 'Amount', value: amount },
      { label: 'Store', value: payment.storeName },
      { label: 'For', value: payment.productName },
      { label: 'Order ID', value: payment.orderId },
      { label: 'Payment ID', value: payment.id },
      { label: 'Transaction ID', value: payment.transactionId ?? '' },
      { label: 'Paid with', value: paidWith(payment.paymentSourceType, payment.sourceBrand, payment.sourceLast4) },
      { label: 'Date', value: formatMailDate(payment.paidAt ?? new Date()) },
    ],
    outro: [`Questions about your order go to ${payment.storeName}. Kestrel processed the payment.`],
    footer: `You get this receipt because this address was given for the payment of order ${payment.orderId} at ${payment.storeName}.`,
  };
}

/** The store owner's "you got paid". */
export function paymentPaidNotice(payment: PaidPaymentNoticeRow, owner: AccountContactRow, publicUrl: string): Notice {
  const amount = money(payment.amountCents, payment.currency);
  const fee = payment.feeCents ?? 0;
  return {
    subject: `You got paid ${amount} at ${payment.storeName}`,
    headline: `You got paid ${amount} at ${payment.storeName}`,
    name: accountName(owner),
    intro: [`${payment.customerName || 'A customer'} paid order ${payment.orderId}. The amount less the fee is in your account ${owner.accountNumber}.`],
    details: [
      { label: 'Amount', value: amount },
      { label: 'Fee', value: money(fee, payment.currency) },
      { label: 'You receive', value: money(payment.amountCents - fee, payment.currency) },
      { label: 'Store', value: `${payment.storeName} (${payment.publicStoreId})` },
      { label: 'Order ID', value: payment.orderId },
      { label: 'Customer', value: payment.customerName || 'N/A' },
      { label: 'Payment ID', value: payment.id },
      { label: 'Transaction ID', value: payment.transactionId ?? '' },
      { label: 'Paid with', value: paidWith(payment.paymentSourceType, payment.sourceBrand, payment.sourceLast4) },
      { label: 'Date', value: formatMailDate(payment.paidAt ?? new Date()) },
    ],
    action: { label: 'Open the store', url: `${publicUrl}/payment-gateway/${encodeURIComponent(payment.publicStoreId)}` },
    footer: `${accountFooter(owner)} To stop these mails for ${payment.storeName}, switch "Payment e-mails" off on the store's page.`,
    sms: `You got paid ${amount} at ${payment.storeName}, order ${payment.orderId}. Transaction ${payment.transactionId ?? ''}.`,
  };
}

/** The payer's receipt for a payment-request link. */
export function linkReceiptNotice(payment: LinkPaymentNoticeRow, owner: AccountContactRow): Notice {
  const amount = money(payment.amountCents, payment.currency);
  const payee = accountName(owner);
  const reference = payment.reference || payment.linkReference;
  return {
    subject: `Your receipt: ${payment.paymentPurpose}`,
    headline: `You paid ${amount} to ${payee}`,
    name: payment.cardHolderName || null,
    intro: [`Thank you for your payment for "${payment.paymentPurpose}". Keep this mail as your receipt.`],
    details: [
      { label: 'Amount', value: amount },
      { label: 'Paid to', value: payee },
      { label: 'For', value: payment.paymentPurpose },
      { label: 'Reference', value: reference },
      { label: 'Payment ID', value: payment.id },
      { label: 'Transaction ID', value: payment.transactionId },
      { label: 'Paid with', value: paidWith(payment.sourceType, payment.sourceBrand, payment.sourceLast4) },
      { label: 'Date', value: formatMailDate(payment.createdAt) },
    ],
    footer: `You get this receipt because this address was given when paying "${payment.paymentPurpose}" through Kestrel.`,
  };
}

/** The link owner's "you got paid". */
export function linkPaidNotice(payment: LinkPaymentNoticeRow, owner: AccountContactRow, publicUrl: string): Notice {
  const amount = money(payment.amountCents, payment.currency);
  return {
    subject: `You got paid ${amount} for "${payment.paymentPurpose}"`,
    headline: `You got paid ${amount} for "${payment.paymentPurpose}"`,
    name: accountName(owner),
    intro: [`Your payment link was paid. The amount less the fee is in your account ${owner.accountNumber}.`],
    details: [
      { label: 'Amount', value: amount },
      { label: 'Fee', value: money(payment.feeCents, payment.currency) },
      { label: 'You receive', value: money(payment.amountCents - payment.feeCents, payment.currency) },
      { label: 'Link', value: payment.paymentPurpose },
      { label: 'Reference', value: payment.reference || payment.linkReference },
      { label: 'Payer', value: payment.payerEmail ?? 'N/A' },
      { label: 'Payment ID', value: payment.id },
      { label: 'Transaction ID', value: payment.transactionId },
      { label: 'Paid with', value: paidWith(payment.sourceType, payment.sourceBrand, payment.sourceLast4) },
      { label: 'Date', value: formatMailDate(payment.createdAt) },
    ],
    action: { label: 'Open the link', url: `${publicUrl}/payment-request/details/${encodeURIComponent(payment.linkId)}` },
    footer: accountFooter(owner),
    sms: `You got paid ${amount} for "${payment.paymentPurpose}". Transaction ${payment.transactionId}.`,
  };
}

const WITHDRAWAL_WORDS: Record<WithdrawalStatus, { subject: (amount: string) => string; intro: (amount: string, to: string, reason: string) => string }> = {
  Pending: {
    subject: (amount) => `Withdrawal of ${amount} requested`,
    intro: (amount, to) => `We have your request to withdraw ${amount} to ${to}. The amount is held from your balance until the bank transfer is made.`,
  },
  Processing: {
    subject: (amount) => `Your withdrawal of ${amount} is being processed`,
    intro: (amount, to) => `Your withdrawal of ${amount} to ${to} is being processed. Most bank transfers arrive within one to three working days.`,
  },
  Completed: {
    subject: (amount) => `Your withdrawal of ${amount} is complete`,
    intro: (amount, to) => `${amount} was paid out to ${to}.`,
  },
  Failed: {
    subject: (amount) => `Your withdrawal of ${amount} failed`,
    intro: (amount, to, reason) => `The bank transfer of ${amount} to ${to} did not go through: ${reason}. The ${amount} is back in your Kestrel balance.`,
  },
  Cancelled: {
    subject: (amount) => `Your withdrawal of ${amount} was cancelled`,
    intro: (amount, to) => `Your withdrawal of ${amount} to ${to} was cancelled. The ${amount} is back in your Kestrel balance.`,
  },
};

/** A withdrawal's new status, as the move that set it (the event) says. */
export function withdrawalNotice(withdrawal: WithdrawalNoticeRow, status: WithdrawalStatus, owner: AccountContactRow, publicUrl: string): Notice {
  const amount = money(withdrawal.amountCents, withdrawal.currency);
  const to = `${withdrawal.bankName} account ${maskBankAccountNumber(withdrawal.bankAccountNumber)}`;
  const words = WITHDRAWAL_WORDS[status];
  const subject = words.subject(amount);
  return {
    subject,
    headline: subject,
    name: accountName(owner),
    intro: [words.intro(amount, to, withdrawal.failureReason ?? 'no reason was given')],
    details: [
      { label: 'Amount', value: amount },
      { label: 'To', value: to },
      { label: 'Status', value: status },
      { label: 'From', value: `Your account ${owner.accountNumber}` },
      { label: 'Withdrawal ID', value: withdrawal.id },
      { label: 'Requested', value: formatMailDate(withdrawal.createdAt) },
    ],
    action: { label: 'See the withdrawal', url: `${publicUrl}/withdraw/bank/${encodeURIComponent(withdrawal.id)}` },
    ...(status === 'Pending' ? { outro: [suspicious] } : {}),
    footer: accountFooter(owner),
    sms: `${subject}${status === 'Failed' ? `: ${withdrawal.failureReason ?? ''}. The money is back in your balance` : ''}. ID ${withdrawal.id.slice(0, 8)}.`,
  };
}

export interface SignInFacts {
  device: string;
  ip: string | null;
  at: Date;
}

/** A sign-in from a device this person had not used with this account (the known-device cookie). */
export function newDeviceSignInNotice(user: { firstName: string; email: string }, signIn: SignInFacts, publicUrl: string): Notice {
  return {
    subject: 'New sign-in to your Kestrel account',
    headline: 'Someone signed in to your account from a new device',
    name: user.firstName,
    intro: [`Your Kestrel account ${user.email} was just used to sign in on a device it had not been used on before.`],
    details: [
      { label: 'Device', value: signIn.device },
      { label: 'Address', value: signIn.ip ?? 'unknown' },
      { label: 'Time', value: formatMailDate(signIn.at) },
    ],
    action: { label: 'Review your signed-in devices', url: `${publicUrl}/my-account` },
    outro: [
      'If this was you, there is nothing to do.',
      `If it was not, reset your password now at ${publicUrl}/forgot-password and sign the other devices out on My Account, Security.`,
    ],
    footer: `You get this security notice at the address you sign in with, ${user.email}. It cannot be switched off.`,
  };
}
