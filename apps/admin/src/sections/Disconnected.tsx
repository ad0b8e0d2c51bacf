// After a disconnect: what was removed, what was kept and what is left to remove by hand. The
// account and this session are gone; installing again starts afresh.
import { Alert } from '@zendeskgarden/react-notifications';
import { SM } from '@zendeskgarden/react-typography';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { disconnectStepText } from '../disconnect-text';
import { Section } from '../ui';

export function Disconnected(props: { subdomain: string; result: DisconnectResult }) {
  const { result, subdomain } = props;
  const failed = result.steps.filter((step) => step.outcome === 'failed');
  return (
    <Section id="disconnected" title={`incident-desk is disconnected from ${subdomain}`}>
      {failed.length > 0 ? (
        <Alert type="warning" role="alert">
          <Alert.Title>Some things could not be removed</Alert.Title>
          <Alert.Paragraph>
            Remove the {failed.length} marked below by hand in Zendesk Admin Center or the incident
            service.
          </Alert.Paragraph>
        </Alert>
      ) : null}
      <ul id="disconnect-result">
        {result.steps.map((step, index) => (
          <li key={index} data-outcome={step.outcome}>
            <SM>{disconnectStepText(step)}</SM>
          </li>
        ))}
      </ul>
      <SM>
        You are signed out.{' '}
        <a href={`/install?subdomain=${encodeURIComponent(subdomain)}`}>
          Install incident-desk again
        </a>
      </SM>
    </Section>
  );
}
