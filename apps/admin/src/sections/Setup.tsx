import { useState } from 'react';
import { Tag } from '@zendeskgarden/react-tags';
import { SM } from '@zendeskgarden/react-typography';
import { api, ApiError, type Overview } from '../api';
import { ActionButton, Row, Section, When } from '../ui';

/** What each setup state means to an admin. */
const LABELS: Record<string, string> = {
  never_run: 'Not run yet',
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  needs_configuration: 'Waiting for the incident API key',
  needs_authorization: 'Needs Zendesk authorisation',
};

const HUES: Record<string, 'green' | 'red' | 'yellow' | 'grey' | 'blue'> = {
  succeeded: 'green',
  failed: 'red',
  needs_configuration: 'yellow',
  needs_authorization: 'yellow',
  queued: 'blue',
  running: 'blue',
};

export function Setup({ overview, refresh }: { overview: Overview; refresh: () => void }) {
  const { setup, account } = overview;
  const [authorizeUrl, setAuthorizeUrl] = useState<string | null>(null);
  return (
    <Section id="setup" title="Setup">
      <Row label="State" testId="setup-state">
        <Tag hue={HUES[setup.state] ?? 'grey'}>
          {LABELS[setup.state] ?? setup.state.replace(/_/g, ' ')}
        </Tag>
      </Row>
      <Row label="Requested">
        <When value={setup.requestedAt} />
      </Row>
      <Row label="Finished">
        <When value={setup.finishedAt} />
      </Row>
      {setup.report ? (
        <>
          <Row label="Outcome" testId="setup-message">
            {setup.report.message}
          </Row>
          {setup.report.scopeAfter ? (
            <Row label="Token scopes afterwards">{setup.report.scopeAfter}</Row>
          ) : null}
          {setup.report.steps.length > 0 ? (
            <ul id="setup-steps">
              {setup.report.steps.map((step, index) => (
                <li key={index}>
                  <SM>
                    {step.step} {step.target}: {step.outcome}
                    {step.message ? ` (${step.message})` : ''}
                  </SM>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
      <ActionButton
        id="rerun-setup"
        label={setup.state === 'never_run' ? 'Run setup' : 'Run setup again'}
        isPrimary
        run={async () => {
          try {
            await api.rerunSetup();
            refresh();
            return 'setup queued';
          } catch (error) {
            const next = error instanceof ApiError ? error.body.authorizeUrl : undefined;
            // only our own install path, never a URL from elsewhere
            if (typeof next === 'string' && next.startsWith('/install?')) {
              setAuthorizeUrl(next);
            }
            throw error;
          }
        }}
      />
      {authorizeUrl ? (
        <p>
          <a id="authorize-setup" href={authorizeUrl}>
            Authorise setup for {account.subdomain} with Zendesk
          </a>
        </p>
      ) : null}
    </Section>
  );
}
