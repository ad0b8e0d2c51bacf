// The first-run checklist, at the top of the page until every step is done: each step says what
// is true now and what to do next, with the button that does it where the page can.
import { Anchor } from '@zendeskgarden/react-buttons';
import { Tag } from '@zendeskgarden/react-tags';
import { MD, SM } from '@zendeskgarden/react-typography';
import {
  api,
  ApiError,
  type ChecklistStep,
  type FirstRun as TFirstRun,
  type Overview,
} from '../api';
import { useTexts } from '../i18n/i18n';
import { webhookTestText } from '../setup-outcome-text';
import { ActionButton, Section } from '../ui';
import { IncidentConnection } from './IncidentConnection';

const STATE_HUE = { done: 'green', todo: 'yellow', waiting: 'blue' } as const;

function StepAction(props: {
  step: ChecklistStep;
  firstRun: TFirstRun;
  overview: Overview;
  refresh: () => void;
}) {
  const { step, firstRun } = props;
  const t = useTexts();
  switch (step.action) {
    case 'save_incident_key':
      return <IncidentConnection overview={props.overview} refresh={props.refresh} />;
    case 'run_setup':
      return (
        <ActionButton
          id="checklist-run-setup"
          label={t.common.runSetup}
          isPrimary
          run={async () => {
            try {
              await api.rerunSetup();
            } catch (error) {
              if (error instanceof ApiError && error.code === 'authorization_needed')
                throw new Error(t.firstRun.setupNeedsAuthorization, { cause: error });
              throw error;
            }
            props.refresh();
            return t.firstRun.setupQueued;
          }}
        />
      );
    case 'test_webhooks':
      return (
        <ActionButton
          id="checklist-test-webhooks"
          label={t.firstRun.sendTest}
          isPrimary
          run={async () => {
            const result = await api.testWebhooks();
            props.refresh();
            const words = t.zendeskWebhookTest;
            if (result.failed.length > 0)
              throw new Error(
                result.failed.map((f) => `${f.clientId}: ${words.clientRefused}`).join('; '),
              );
            const zendesk =
              result.zendesk.outcome === 'delivered'
                ? ''
                : ` ${webhookTestText(result.zendesk, words)}`;
            return `${t.firstRun.testRequested}${zendesk}`;
          }}
        />
      );
    case 'authorize':
      // only our own install path, never a URL from elsewhere
      return firstRun.authorizeUrl.startsWith('/install?') ? (
        <Anchor id="checklist-authorize" href={firstRun.authorizeUrl}>
          {t.common.authoriseWithZendesk}
        </Anchor>
      ) : null;
    default:
      return null;
  }
}

export function FirstRun(props: { firstRun: TFirstRun; overview: Overview; refresh: () => void }) {
  const { firstRun } = props;
  const t = useTexts();
  const done = firstRun.steps.filter((step) => step.state === 'done').length;
  return (
    <Section id="first-run" title={t.firstRun.title}>
      <SM style={{ marginBottom: 12 }}>{t.firstRun.progress(done, firstRun.steps.length)}</SM>
      <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {firstRun.steps.map((step, index) => {
          const hue = STATE_HUE[step.state];
          const label = t.firstRun.state[step.state];
          return (
            <li
              key={step.id}
              data-testid={`step-${step.id}`}
              data-state={step.state}
              style={{
                padding: '12px 16px',
                marginBottom: 8,
                border: '1px solid #d8dcde',
                borderRadius: 4,
                background: step.state === 'done' ? '#f8f9f9' : '#fff',
              }}
            >
              <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                <Tag hue={hue}>{label}</Tag>
                <MD tag="h3" isBold>
                  {index + 1}. {step.title}
                </MD>
              </div>
              <SM style={{ margin: '4px 0' }}>{step.summary}</SM>
              {step.next ? (
                <SM isBold style={{ margin: '4px 0 8px' }} data-testid={`next-${step.id}`}>
                  {t.firstRun.next(step.next)}
                </SM>
              ) : null}
              {step.state !== 'done' ? (
                <StepAction
                  step={step}
                  firstRun={firstRun}
                  overview={props.overview}
                  refresh={props.refresh}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
