import { messages } from '@kestrel/shared';
import { Button } from '../../../components/Button.tsx';
import { CenteredLayout } from '../../../components/CenteredLayout.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { AlertCircleIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';

/** The router's error boundary: a page crashed while rendering. */
export function RouteErrorPage() {
  return (
    <CenteredLayout>
      <PageTitle title="Error" />
      <StatusCard
        icon={<AlertCircleIcon />}
        tone="danger"
        title={messages.generic.internal}
        actions={
          <Button size="lg" onClick={() => window.location.reload()}>
            Reload page
          </Button>
        }
      >
        <p>This page ran into a problem. Reloading usually helps; your money and data are safe.</p>
      </StatusCard>
    </CenteredLayout>
  );
}
