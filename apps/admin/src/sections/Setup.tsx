import { useState } from 'react';
import { Tag } from '@zendeskgarden/react-tags';
import { SM } from '@zendeskgarden/react-typography';
import { api, ApiError, type Overview } from '../api';
import { useTexts } from '../i18n/i18n';
import { setupOutcomeText } from '../setup-outcome-text';
import { ActionButton, Row, Section, When } from '../ui';

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
  const texts = useTexts();
  const t = texts.setup;
  const common = texts.common;
  const [authorizeUrl, setAuthorizeUrl] = useState<string | null>(null);
  return (
    <Section id="setup" title={t.title}>
      <Row label={t.state} testId="setup-state">
        <Tag hue={HUES[setup.state] ?? 'grey'}>
          {t.label[setup.state] ?? setup.state.replace(/_/g, ' ')}
        </Tag>
      </Row>
      <Row label={t.requested}>
        <When value={setup.requestedAt} />
      </Row>
      <Row label={t.finished}>
        <When value={setup.finishedAt} />
      </Row>
      {setup.report ? (
        <>
          <Row label={t.outcome} testId="setup-message">
            {setupOutcomeText(setup.report, texts)}
          </Row>
          {setup.report.scopeAfter ? (
            <Row label={t.scopesAfter}>{setup.report.scopeAfter}</Row>
          ) : null}
          {setup.report.steps.length > 0 ? (
            <ul id="setup-steps">
              {setup.report.steps.map((step, index) => (
                <li key={index}>
                  <SM>
                    {t.stepLine(
                      t.step[step.step] ?? step.step,
                      step.target,
                      t.stepOutcome[step.outcome] ?? step.outcome,
                    )}
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
        label={setup.state === 'never_run' ? common.runSetup : t.runAgain}
        isPrimary
        run={async () => {
          try {
            await api.rerunSetup();
            refresh();
            return t.queued;
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
            {t.authorise(account.subdomain)}
          </a>
        </p>
      ) : null}
    </Section>
  );
}
