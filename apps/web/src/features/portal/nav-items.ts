import { uiText } from '@kestrel/shared';
import type { ComponentType } from 'react';
import {
  BankIcon,
  DashboardIcon,
  DepositIcon,
  HistoryIcon,
  InvoiceIcon,
  LinkIcon,
  ListIcon,
  StoreIcon,
  TransferIcon,
  UserIcon,
  type IconProps,
} from '../../components/icons.tsx';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<IconProps>;
  /** Other paths that belong to this item (its detail pages), so it stays highlighted there. */
  alsoActiveOn?: readonly string[];
}

const n = uiText.nav;

/** The side navigation, in the spec's order. The mobile drawer shows the same list. */
export const navItems: readonly NavItem[] = [
  { to: '/dashboard', label: n.dashboard, icon: DashboardIcon },
  { to: '/deposit', label: n.deposit, icon: DepositIcon },
  { to: '/payments', label: n.payments, icon: HistoryIcon, alsoActiveOn: ['/payment/'] },
  { to: '/fund-transfer', label: n.fundTransfer, icon: TransferIcon },
  { to: '/withdraw', label: n.withdraw, icon: BankIcon, alsoActiveOn: ['/bank/'] },
  { to: '/payment-request', label: n.paymentRequest, icon: LinkIcon },
  { to: '/invoice', label: n.invoice, icon: InvoiceIcon },
  { to: '/payment-gateway', label: n.paymentGateway, icon: StoreIcon },
  { to: '/transactions', label: n.transactions, icon: ListIcon },
  { to: '/my-account', label: n.myAccount, icon: UserIcon },
];

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/dashboard' && pathname === '/') return true;
  if (pathname === item.to || pathname.startsWith(`${item.to}/`)) return true;
  return (item.alsoActiveOn ?? []).some((prefix) => pathname.startsWith(prefix));
}
