/**
 * The payment messages a payer's page shows (the card form's, the pay outcome's), part of
 * `paymentMessages` (pay-messages.ts): a module of their own, so the pay pages' download holds
 * these and not the gateway's others (a bundler splits by module, not by declaration).
 */
export const payerMessages = {
  feeTooHighToast: 'Error! Payment fee is too high',
  success: 'Congratulations! Payment successfull',
  failed: 'Payment failed!',
  cardNumberRequired: 'Please enter card number',
  expiryRequired: 'Expires date is required',
  cvcRequired: 'CVC is required',
  cvcInvalid: 'CVC must be a 3-digit number',
  cardHolderRequired: 'Card holder name is required',
  unexpected: 'An unexpected error occurred.',
} as const;

/** Hosted checkout messages (the spec's, exact). */
export const checkoutMessages = {
  emailRequired: 'Please enter the email',
  passwordMissing: 'Password missing',
  loginError: 'Login Error!',
  tpinRequired: 'Enter 4-digit TPIN',
  tpinInvalid: 'Invalid TPIN',
  paid: 'Payment Successful!',
  broken: 'Broken Payment!',
  brokenHint: 'Please check the payment link or contact support.',
  ownStore: 'You cannot pay your own store from the account it pays into',
  userMismatch: 'You can only pay from your own account',
} as const;
