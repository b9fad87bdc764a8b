import { PRODUCT_NAME, uiText } from '@kestrel/shared';
import { GlobeIcon, ShieldIcon } from '../../../components/icons.tsx';
import { PartnerLogos } from './PartnerLogos.tsx';

const t = uiText.login;

/**
 * The sign-in marketing panel: heading, blurb, 'Pay seamlessly on 15,000 sites' and the
 * partner logos. On small screens only the blurb stays (the spec hides headings and logos).
 */
export function MarketingPanel() {
  return (
    <section
      aria-label={`About ${PRODUCT_NAME}`}
      className="relative overflow-hidden rounded-2xl bg-linear-to-br from-brand-800 via-brand-700 to-brand-900 p-5 text-white shadow-lg sm:p-8 lg:rounded-3xl lg:p-10"
    >
      <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-brand-500/25 blur-2xl" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-28 -left-16 size-72 rounded-full bg-accent-500/15 blur-2xl" />
      <div className="relative">
        <h2 className="hidden text-4xl leading-tight font-bold tracking-tight text-balance lg:block xl:text-5xl">{t.marketingHeading}</h2>
        <p className="text-base text-brand-50 lg:mt-5 lg:max-w-lg lg:text-lg">{t.marketingBlurb}</p>
        <ul className="mt-6 hidden gap-6 text-sm text-brand-50 lg:flex">
          <li className="flex items-center gap-2">
            <ShieldIcon className="size-5 text-accent-300" />
            Protected payments
          </li>
          <li className="flex items-center gap-2">
            <GlobeIcon className="size-5 text-accent-300" />
            Send money anywhere
          </li>
        </ul>
        <h3 className="mt-10 hidden text-lg font-semibold lg:block">{t.marketingSites}</h3>
        <PartnerLogos className="mt-4 hidden lg:grid" />
      </div>
    </section>
  );
}
