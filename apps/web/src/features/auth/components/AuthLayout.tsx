import type { ReactNode } from 'react';
import { Logo } from '../../../components/Logo.tsx';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { MarketingPanel } from './MarketingPanel.tsx';

/** Public sign-in pages: the logo bar (linking to the marketing site), marketing panel and a form card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  // MARKETING_URL: a full page load to another site, so a plain link, not the router's.
  const marketingUrl = usePublicConfig().data?.marketingUrl;
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <a href={marketingUrl} className="rounded-md">
            <Logo />
          </a>
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-7xl flex-1 content-start items-center gap-6 lg:content-center px-4 py-6 sm:px-6 sm:py-10 lg:grid-cols-2 lg:gap-12 lg:px-8 lg:py-12">
        <div className="order-2 lg:order-1">
          <MarketingPanel />
        </div>
        <div className="order-1 flex justify-center lg:order-2">{children}</div>
      </main>
    </div>
  );
}

/** The white card that holds an auth form. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <section className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" aria-labelledby="auth-card-title">
      <h1 id="auth-card-title" className="text-2xl font-bold tracking-tight text-slate-900">
        {title}
      </h1>
      {subtitle && <p className="mt-1 text-sm text-slate-600">{subtitle}</p>}
      <div className="mt-6">{children}</div>
    </section>
  );
}
