import { messages, uiText } from '@kestrel/shared';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { CenteredLayout } from '../../../components/CenteredLayout.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';

/**
 * Any path no route claims. Inside the portal (`inPortal`) it fills the shell's content
 * area, so the header and side navigation stay; for a visitor it is a page of its own. Go Back
 * goes to / as the spec says (the dashboard for a signed-in user, /login for a visitor).
 */
export function NotFoundPage({ inPortal = false }: { inPortal?: boolean }) {
  const navigate = useNavigate();
  const content = (
    <>
      <PageTitle title={messages.portal.notFound} />
      <section className="mx-auto w-full max-w-md py-10 text-center sm:py-16">
        <p aria-hidden="true" className="text-7xl font-extrabold tracking-tight text-brand-700 sm:text-8xl">
          404
        </p>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{messages.portal.notFound}</h1>
        <p className="mt-3 text-slate-600">The page you are looking for does not exist or has moved.</p>
        <Button size="lg" className="mt-8" onClick={() => void navigate('/')}>
          {uiText.portal.goBack}
        </Button>
      </section>
    </>
  );
  return inPortal ? content : <CenteredLayout>{content}</CenteredLayout>;
}
