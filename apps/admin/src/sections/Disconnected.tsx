// After a disconnect: what was removed, what was kept and what is left to remove by hand. The
// account and this session are gone; installing again starts afresh.
import { Alert } from '@zendeskgarden/react-notifications';
import { SM } from '@zendeskgarden/react-typography';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { disconnectStepText } from '../disconnect-text';
import { useTexts } from '../i18n/i18n';
import { Section } from '../ui';

export function Disconnected(props: { subdomain: string; result: DisconnectResult }) {
  const t = useTexts().disconnected;
  const { result, subdomain } = props;
  const failed = result.steps.filter((step) => step.outcome === 'failed');
  return (
    <Section id="disconnected" title={t.title(subdomain)}>
      {failed.length > 0 ? (
        <Alert type="warning" role="alert">
          <Alert.Title>{t.someFailed}</Alert.Title>
          <Alert.Paragraph>{t.removeByHand(failed.length)}</Alert.Paragraph>
        </Alert>
      ) : null}
      <ul id="disconnect-result">
        {result.steps.map((step, index) => (
          <li key={index} data-outcome={step.outcome}>
            <SM>{disconnectStepText(step, t)}</SM>
          </li>
        ))}
      </ul>
      <SM>
        {t.signedOut}{' '}
        <a href={`/install?subdomain=${encodeURIComponent(subdomain)}`}>{t.installAgain}</a>
      </SM>
    </Section>
  );
}
