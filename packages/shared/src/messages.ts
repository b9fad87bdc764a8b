import { PRODUCT_NAME } from './constants.ts';

/**
 * User-facing messages, exactly as the specification writes them (spelling included).
 * Server messages the web app matches on live here too, so both sides agree.
 */
export const messages = {
  login: {
    emailRequired: 'Email is required',
    passwordRequired: 'Password is required',
    success: 'Login successful',
    invalid: 'Invalid email or password!',
    failed: 'Login failed!',
    checkoutFailed: 'Login Error!',
    rateLimited: 'Too many login attempts. Please wait a few minutes and try again.',
  },
  checkoutLogin: {
    emailRequired: 'Please enter the email',
    passwordRequired: 'Password missing',
  },
  signup: {
    firstNameRequired: 'First name is required',
    lastNameRequired: 'Last name is required',
    emailRequired: 'Email is required',
    emailInvalid: 'Invalid email address',
    phoneRequired: 'Phone is required',
    phoneInvalid: 'Invalid phone number',
    passwordRequired: 'New password is required',
    passwordTooShort: 'Password must be at least 8 characters',
    confirmRequired: 'Confrim password is required',
    passwordMismatch: "Password don't match",
    emailTaken: 'The email is already used! you can login or try another email',
    phoneTaken: 'The phone number is already used!',
    mailFailed: 'Failed to send mail!',
    failed: 'Sign-up Failed!',
    notSuccess: 'Sign-up failed! try again',
    success: 'Registration successful! Please check your email to verify your account.',
  },
  verification: {
    sent: 'Verification mail sent',
    notSent: 'Verification mail did not send!',
    verified: 'Your email is verified. You can now log in.',
    linkInvalid: 'This verification link is invalid or has expired.',
    alreadyVerified: 'Email is already verified',
  },
  portal: {
    notFound: 'Page Not Found',
    verifyEmailTitle: 'Please Verify Your Email',
    accountRequired: `You must have complete your account for access ${PRODUCT_NAME} portal`,
    accountNotAvailable: 'Account not available!',
    switchingAccount: 'Switching account...',
    comingSoon: 'Comming Soon!',
    depositComingSoon: 'Comming soon!',
  },
  account: {
    typeRequired: 'Account type is required!',
    tpinDigits: 'TPIN will be only digit',
    created: 'Congratulations! Your Account Done',
    userNameTaken: 'userName is already exist!',
    accountEmailTaken: 'accountEmail is already exist!',
    accountPhoneTaken: 'accountPhone is already exist!',
    identityNumberTaken: 'identity.number is already exist!',
    userNameTakenField: 'Username already exists!',
    accountEmailTakenField: 'Email already exists!',
    accountPhoneTakenField: 'Phone already exists!',
    identityNumberTakenToast: 'Identity number is already used!',
    tooYoung: 'You must be at least 16 years old',
  },
  tpin: {
    required: 'TPIN is required',
    fourDigits: 'TPIN must be 4 digits',
    wrong: 'Incorrect TPIN',
    locked: 'Too many wrong TPIN attempts. Money movement on this account is locked for 30 minutes.',
  },
  auth: {
    unauthorized: 'Please log in to continue',
    forbidden: 'You are not allowed to do that',
  },
  generic: {
    notFound: 'Not found',
    internal: 'Something went wrong. Please try again.',
    tooManyRequests: 'Too many requests. Please slow down and try again shortly.',
  },
} as const;

/**
 * Interface labels the specification names exactly (titles, buttons, links, counters).
 * Kept beside `messages` so the web app and the end-to-end tests read the same text.
 */
export const uiText = {
  login: {
    title: 'Login',
    email: 'Email',
    password: 'Password',
    submit: 'Login',
    forgotPassword: 'Forgot Password',
    newHere: 'Are you new here?',
    register: 'Please Register',
    marketingHeading: 'Unlock global financial freedom',
    marketingBlurb: `Join millions who already use ${PRODUCT_NAME} to pay safely online and send money anywhere.`,
    marketingSites: 'Pay seamlessly on 15,000 sites',
  },
  signup: {
    title: 'Register',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'Email',
    phone: 'Phone',
    password: 'Password',
    confirmPassword: 'Confirm password',
    submit: 'Register',
    haveAccount: 'Already have an account?',
    login: 'Login',
  },
  verification: {
    title: 'Verify email',
    verifiedTitle: 'Email verified',
    failedTitle: 'Verification failed',
    checking: 'Verifying your email…',
    continueToDashboard: 'Continue to dashboard',
    continueToLogin: 'Go to login',
    resendMail: 'resend mail',
  },
  portal: {
    viewBalance: 'View Balance',
    logout: 'Logout',
    goBack: 'Go Back',
    createNewAccount: '+ Create New Account',
    completeAccountTitle: 'Complete Your Account',
    notifications: 'Notifications',
    myAccount: 'My account',
    help: 'Help',
  },
  nav: {
    dashboard: 'Dashboard',
    deposit: 'Deposit',
    payments: 'Payment History',
    fundTransfer: 'Fund Transfer',
    withdraw: 'Withdraw',
    paymentRequest: 'Payment Request',
    invoice: 'Invoice',
    paymentGateway: 'Payment Gateway',
    transactions: 'All Transactions',
    myAccount: 'My Account',
  },
  dashboard: {
    title: 'Dashboard',
    totalPayments: 'Total Payments',
    successPayment: 'Success Payment',
    totalWithdraw: 'Total Withdraw',
    totalTransaction: 'Total Transaction',
  },
} as const;
