import type { RouteObject } from 'react-router';
import { MyAccountPage } from '../features/accounts/pages/MyAccountPage.tsx';
import { NewAccountPage } from '../features/accounts/pages/NewAccountPage.tsx';
import { LoginPage } from '../features/auth/pages/LoginPage.tsx';
import { SignupPage } from '../features/auth/pages/SignupPage.tsx';
import { VerifyEmailPage } from '../features/auth/pages/VerifyEmailPage.tsx';
import { DashboardPage } from '../features/dashboard/pages/DashboardPage.tsx';
import { NewStorePage } from '../features/gateway/pages/NewStorePage.tsx';
import { StorePage } from '../features/gateway/pages/StorePage.tsx';
import { StoresPage } from '../features/gateway/pages/StoresPage.tsx';
import { PaymentDetailsPage } from '../features/payments/pages/PaymentDetailsPage.tsx';
import { PaymentsPage } from '../features/payments/pages/PaymentsPage.tsx';
import { TransactionsPage } from '../features/transactions/pages/TransactionsPage.tsx';
import { FundTransferAreaPage } from '../features/transfers/pages/FundTransferAreaPage.tsx';
import { FundTransferHomePage } from '../features/transfers/pages/FundTransferHomePage.tsx';
import { RecipientSearchPage } from '../features/transfers/pages/RecipientSearchPage.tsx';
import { TransferFormPage } from '../features/transfers/pages/TransferFormPage.tsx';
import { PortalGate } from '../features/portal/components/PortalGate.tsx';
import { NotFoundPage } from '../features/portal/pages/NotFoundPage.tsx';
import { RouteErrorPage } from '../features/portal/pages/RouteErrorPage.tsx';
import { PublicOnly, RequireAuth } from './guards.tsx';
import { RootLayout } from './RootLayout.tsx';

/*
 * The route table: one line per page. A feature adds its page to exactly one list.
 *
 * Protected pages of the spec still to come (each arrives with its feature):
 *   /deposit, /withdraw, /withdraw/bank, /bank/withdraw/new, /payment-request,
 *   /payment-request/new, /payment-request/details/:id, /invoice
 * Public pages still to come: /web-pay/:urlId, /payment-request/:pRequestURLId, /loader.
 */

/** Signed-in pages: need the access cookie, pass the portal gate, render inside the shell. */
const protectedPages: RouteObject[] = [
  { index: true, element: <DashboardPage /> },
  { path: '/dashboard', element: <DashboardPage /> },
  { path: '/my-account', element: <MyAccountPage /> },
  { path: '/new-account', element: <NewAccountPage /> },
  { path: '/fund-transfer', element: <FundTransferHomePage /> },
  { path: '/fund-transfer/:area', element: <FundTransferAreaPage /> },
  { path: '/fund-transfer/:area/recipient', element: <RecipientSearchPage /> },
  { path: '/fund-transfer/:area/recipient/:recipientUserName', element: <TransferFormPage /> },
  { path: '/transactions', element: <TransactionsPage /> },
  { path: '/payments', element: <PaymentsPage /> },
  { path: '/payment/details/:paymentId', element: <PaymentDetailsPage /> },
  { path: '/payment-gateway', element: <StoresPage /> },
  { path: '/payment-gateway/store/new', element: <NewStorePage /> },
  { path: '/payment-gateway/:storeId', element: <StorePage /> },
];

/** Closed to signed-in users, who go to /dashboard. */
const signedOutPages: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/signup', element: <SignupPage /> },
];

/** Open to everyone, signed in or not. */
const publicPages: RouteObject[] = [{ path: '/verify-email', element: <VerifyEmailPage /> }];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { element: <PublicOnly />, children: signedOutPages },
      ...publicPages,
      { element: <RequireAuth />, children: [{ element: <PortalGate />, children: protectedPages }] },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
