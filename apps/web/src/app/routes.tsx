import type { ComponentType } from 'react';
import { useParams, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/Spinner.tsx';
import { NotFoundPage } from '../features/portal/pages/NotFoundPage.tsx';
import { RouteErrorPage } from '../features/portal/pages/RouteErrorPage.tsx';
import { checkoutPages, type CheckoutPage } from './checkout-pages.ts';
import { PublicOnly, RequireAuth } from './guards.tsx';
import { RootLayout } from './RootLayout.tsx';

/**
 * A route whose page is its own chunk, downloaded on the first visit: the login page does
 * not download the portal, and a visitor's checkout will not either.
 */
function lazyPage<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

/**
 * A public pay page reached by a client-side navigation (opened from outside, main.tsx starts
 * the checkout app instead): the same page, given the route's parameters as props.
 */
function checkoutRoute({ path, load }: CheckoutPage): RouteObject {
  return {
    path,
    lazy: async () => {
      const { Page } = await load();
      return { Component: () => <Page {...(useParams() as Record<string, string>)} /> };
    },
  };
}

/*
 * The route table: one line per page. A feature adds its page to exactly one list.
 */

/** The portal gate and shell around every signed-in page: a lazy chunk of its own. */
const portalGate = lazyPage(() => import('../features/portal/components/PortalGate.tsx'), (gate) => gate.PortalGate);

/** Signed-in pages: need the access cookie, pass the portal gate, render inside the shell. */
const protectedPages: RouteObject[] = [
  { index: true, ...lazyPage(() => import('../features/dashboard/pages/DashboardPage.tsx'), (page) => page.DashboardPage) },
  { path: '/dashboard', ...lazyPage(() => import('../features/dashboard/pages/DashboardPage.tsx'), (page) => page.DashboardPage) },
  { path: '/my-account', ...lazyPage(() => import('../features/accounts/pages/MyAccountPage.tsx'), (page) => page.MyAccountPage) },
  { path: '/new-account', ...lazyPage(() => import('../features/accounts/pages/NewAccountPage.tsx'), (page) => page.NewAccountPage) },
  { path: '/fund-transfer', ...lazyPage(() => import('../features/transfers/pages/FundTransferHomePage.tsx'), (page) => page.FundTransferHomePage) },
  { path: '/fund-transfer/:area', ...lazyPage(() => import('../features/transfers/pages/FundTransferAreaPage.tsx'), (page) => page.FundTransferAreaPage) },
  { path: '/fund-transfer/:area/recipient', ...lazyPage(() => import('../features/transfers/pages/RecipientSearchPage.tsx'), (page) => page.RecipientSearchPage) },
  { path: '/fund-transfer/:area/recipient/:recipientUserName', ...lazyPage(() => import('../features/transfers/pages/TransferFormPage.tsx'), (page) => page.TransferFormPage) },
  { path: '/transactions', ...lazyPage(() => import('../features/transactions/pages/TransactionsPage.tsx'), (page) => page.TransactionsPage) },
  { path: '/deposit', ...lazyPage(() => import('../features/deposit/pages/DepositPage.tsx'), (page) => page.DepositPage) },
  { path: '/withdraw', ...lazyPage(() => import('../features/withdrawals/pages/WithdrawHubPage.tsx'), (page) => page.WithdrawHubPage) },
  { path: '/withdraw/bank', ...lazyPage(() => import('../features/withdrawals/pages/BankWithdrawListPage.tsx'), (page) => page.BankWithdrawListPage) },
  { path: '/withdraw/bank/:withdrawalId', ...lazyPage(() => import('../features/withdrawals/pages/WithdrawalDetailsPage.tsx'), (page) => page.WithdrawalDetailsPage) },
  { path: '/bank/withdraw/new', ...lazyPage(() => import('../features/withdrawals/pages/NewBankWithdrawPage.tsx'), (page) => page.NewBankWithdrawPage) },
  { path: '/invoice', ...lazyPage(() => import('../features/invoices/pages/InvoicesPage.tsx'), (page) => page.InvoicesPage) },
  { path: '/invoice/:id', ...lazyPage(() => import('../features/invoices/pages/InvoiceDetailPage.tsx'), (page) => page.InvoiceDetailPage) },
  { path: '/payments', ...lazyPage(() => import('../features/payments/pages/PaymentsPage.tsx'), (page) => page.PaymentsPage) },
  { path: '/payment/details/:paymentId', ...lazyPage(() => import('../features/payments/pages/PaymentDetailsPage.tsx'), (page) => page.PaymentDetailsPage) },
  { path: '/payment-gateway', ...lazyPage(() => import('../features/gateway/pages/StoresPage.tsx'), (page) => page.StoresPage) },
  { path: '/payment-gateway/store/new', ...lazyPage(() => import('../features/gateway/pages/NewStorePage.tsx'), (page) => page.NewStorePage) },
  { path: '/payment-gateway/:storeId', ...lazyPage(() => import('../features/gateway/pages/StorePage.tsx'), (page) => page.StorePage) },
  // Static paths outrank the public '/payment-request/:pRequestURLId' (checkout-pages.ts names
  // /payment-request/new as the portal's too), so these stay the owner's.
  { path: '/payment-request', ...lazyPage(() => import('../features/payment-requests/pages/PaymentRequestsPage.tsx'), (page) => page.PaymentRequestsPage) },
  { path: '/payment-request/new', ...lazyPage(() => import('../features/payment-requests/pages/NewPaymentRequestPage.tsx'), (page) => page.NewPaymentRequestPage) },
  {
    path: '/payment-request/details/:paymentRequestId',
    ...lazyPage(() => import('../features/payment-requests/pages/PaymentRequestDetailsPage.tsx'), (page) => page.PaymentRequestDetailsPage),
  },
];

/**
 * The operator console: its own gate and layout, every page its own chunk; the portal and the
 * checkout never download any of it. Anyone who is not an operator sees 'Page Not Found'.
 */
const opsPages: RouteObject[] = [
  { index: true, ...lazyPage(() => import('../features/ops/pages/OverviewPage.tsx'), (page) => page.OverviewPage) },
  { path: 'stores', ...lazyPage(() => import('../features/ops/pages/StoresPage.tsx'), (page) => page.StoresPage) },
  { path: 'approvals', ...lazyPage(() => import('../features/ops/pages/ApprovalsPage.tsx'), (page) => page.ApprovalsPage) },
  { path: 'withdrawals', ...lazyPage(() => import('../features/ops/pages/WithdrawalsPage.tsx'), (page) => page.WithdrawalsPage) },
  { path: 'identity', ...lazyPage(() => import('../features/ops/pages/IdentityPage.tsx'), (page) => page.IdentityPage) },
  { path: 'accounts', ...lazyPage(() => import('../features/ops/pages/AccountsPage.tsx'), (page) => page.AccountsPage) },
  { path: 'accounts/:accountId', ...lazyPage(() => import('../features/ops/pages/AccountDetailPage.tsx'), (page) => page.AccountDetailPage) },
  { path: 'payments', ...lazyPage(() => import('../features/ops/pages/PaymentsPage.tsx'), (page) => page.PaymentsPage) },
  { path: 'payments/:paymentId', ...lazyPage(() => import('../features/ops/pages/PaymentsPage.tsx'), (page) => page.PaymentsPage) },
  { path: 'ledger', ...lazyPage(() => import('../features/ops/pages/LedgerPage.tsx'), (page) => page.LedgerPage) },
  { path: 'callbacks', ...lazyPage(() => import('../features/ops/pages/CallbacksPage.tsx'), (page) => page.CallbacksPage) },
  { path: 'reconciliation', ...lazyPage(() => import('../features/ops/pages/ReconciliationPage.tsx'), (page) => page.ReconciliationPage) },
  { path: 'audit', ...lazyPage(() => import('../features/ops/pages/AuditPage.tsx'), (page) => page.AuditPage) },
  { path: '*', element: <NotFoundPage /> },
];
const opsLayout = lazyPage(() => import('../features/ops/components/OpsLayout.tsx'), (layout) => layout.OpsLayout);

/** Closed to signed-in users, who go to /dashboard. */
const signedOutPages: RouteObject[] = [
  { path: '/login', ...lazyPage(() => import('../features/auth/pages/LoginPage.tsx'), (page) => page.LoginPage) },
  { path: '/signup', ...lazyPage(() => import('../features/auth/pages/SignupPage.tsx'), (page) => page.SignupPage) },
];

/** Open to everyone, signed in or not. */
const publicPages: RouteObject[] = [
  // The spec's loading page (001 §2): a spinner, nothing else.
  { path: '/loader', element: <FullPageSpinner label="Loading" /> },
  { path: '/verify-email', ...lazyPage(() => import('../features/auth/pages/VerifyEmailPage.tsx'), (page) => page.VerifyEmailPage) },
  // Password reset works signed in or not: using the link ends every session anyway.
  { path: '/forgot-password', ...lazyPage(() => import('../features/auth/pages/ForgotPasswordPage.tsx'), (page) => page.ForgotPasswordPage) },
  { path: '/reset-password', ...lazyPage(() => import('../features/auth/pages/ResetPasswordPage.tsx'), (page) => page.ResetPasswordPage) },
  // The pay pages (app/checkout-pages.ts): a visitor with no portal session; never the portal shell.
  ...checkoutPages.map(checkoutRoute),
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { element: <PublicOnly />, children: signedOutPages },
      ...publicPages,
      { path: '/ops', element: <RequireAuth signedOut={<NotFoundPage />} />, children: [{ ...opsLayout, children: opsPages }] },
      { element: <RequireAuth />, children: [{ ...portalGate, children: protectedPages }] },
      // Any other path: 'Page Not Found' inside the portal shell for a signed-in user, a bare
      // one for a visitor.
      {
        element: <RequireAuth signedOut={<NotFoundPage />} />,
        children: [{ ...portalGate, children: [{ path: '*', element: <NotFoundPage inPortal /> }] }],
      },
    ],
  },
];
