import { useCallback, useEffect, useId, useState } from 'react';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { ConnectorError, ConnectorResult } from '../api/connectorErrors';
import type { TActionAck, TReportMode, TSidebarTicket } from '@incident-desk/sidebar-contract';
import type { TFoundThreat, TThreatDuplicates, TThreatPlace, ThreatsApi } from '../api/threatsApi';
import { useI18n } from '../hooks/useI18n';
import { useThreatsApi } from '../hooks/useThreatsApi';
import { DefangedText } from './DefangedText';
import { DuplicateNotice, hasDuplicates, SavedThreatDuplicateCheck } from './DuplicateCheck';
import { errorMessage } from './errorMessages';
import { ConfirmDialog } from './LazyConfirmDialog';
import { Muted, Row, Section, Stack } from './layout';

interface Props {
  ticket: TSidebarTicket;
  onChanged: () => void;
}

type Choice = {
  threat: TFoundThreat;
  mode: TReportMode;
  stage: 'checking' | 'duplicate' | 'confirm';
  duplicates?: TThreatDuplicates;
  /** The duplicate check could not answer: the agent reports knowing that. */
  unchecked?: boolean;
};

type Feedback = { ok: true; key: string } | { ok: false; key: string; error: ConnectorError };

/**
 * Issue 18 on a ticket with no incident: the threats the connector finds in the conversation, each
 * one click from being reported (it becomes the Threat field's value), and the account's existing
 * incident for a threat offered before a second report is made.
 */
export function ThreatsFound({ ticket, onChanged }: Props) {
  const api = useThreatsApi();
  if (!api || ticket.linkState === 'linked') return null;
  return <ThreatsFoundView api={api} ticket={ticket} onChanged={onChanged} />;
}

function ThreatsFoundView({ api, ticket, onChanged }: Props & { api: ThreatsApi }) {
  const { t } = useI18n();
  const [threats, setThreats] = useState<TFoundThreat[] | null>(null);
  const [loadError, setLoadError] = useState<ConnectorError | null>(null);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  // each list's buttons share their names: the threat they act on is their description
  const idPrefix = useId();

  const load = useCallback(async () => {
    setLoadError(null);
    const result = await api.listThreats(ticket.id);
    if (result.ok) setThreats(result.value);
    else setLoadError(result.error);
  }, [api, ticket.id]);
  useEffect(() => void load(), [load]);

  const act = useCallback(
    async (key: string, run: () => Promise<ConnectorResult<TActionAck>>) => {
      setPending(true);
      setFeedback(null);
      const result = await run();
      setPending(false);
      setChoice(null);
      setFeedback(result.ok ? { ok: true, key } : { ok: false, key, error: result.error });
      if (result.ok || result.error.kind === 'conflict') onChanged();
    },
    [onChanged],
  );
  const link = (value: string) => void act('linked', () => api.linkExisting(ticket.id, value));

  async function choose(threat: TFoundThreat, mode: TReportMode) {
    setFeedback(null);
    setChoice({ threat, mode, stage: 'checking' });
    const result = await api.findDuplicates(ticket.id, threat.value);
    if (result.ok && hasDuplicates(result.value))
      setChoice({ threat, mode, stage: 'duplicate', duplicates: result.value });
    else setChoice({ threat, mode, stage: 'confirm', unchecked: !result.ok });
  }

  const canReport = ticket.linkState === 'none' || ticket.linkState === 'unlinked';
  const savedThreatCheck =
    ticket.threat && ticket.linkState !== 'none' ? (
      <SavedThreatDuplicateCheck
        api={api}
        ticketId={ticket.id}
        value={ticket.threat}
        onLink={link}
        pending={pending}
      />
    ) : null;
  // nothing found (or still reading): no section at all, the view stays short
  const showSection = Boolean(threats?.length) || loadError !== null || feedback !== null;
  return (
    <>
      {savedThreatCheck}
      {showSection ? (
        <Section title={t('threats.title')} testId="threats-found">
          <FeedbackAlert feedback={feedback} onDismiss={() => setFeedback(null)} />
          {loadError ? (
            <Alert type="error" role="alert" data-testid="threats-load-failed">
              <Stack>
                <Alert.Paragraph>
                  {t('threats.loadFailed')}{' '}
                  {t(errorMessage(loadError).key, errorMessage(loadError).vars)}
                </Alert.Paragraph>
                <Row>
                  <Button size="small" onClick={() => void load()}>
                    {t('common.retry')}
                  </Button>
                </Row>
              </Stack>
            </Alert>
          ) : null}
          {threats && threats.length > 0 ? (
            <Stack as="ul" role="list" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {threats.map((threat, index) => (
                <li key={`${threat.kind}:${threat.value}`} data-testid="found-threat">
                  <Stack>
                    <Row>
                      <SM isBold>{t(`threats.kind.${threat.kind}`)}</SM>
                      <span id={`${idPrefix}-${index}`}>
                        <DefangedText value={threat.display} />
                      </span>
                    </Row>
                    <Muted>
                      {t('threats.seenIn')} {threat.seenIn.map((p) => placeText(t, p)).join('; ')}
                    </Muted>
                    {canReport ? (
                      <Row>
                        <Button
                          size="small"
                          aria-describedby={`${idPrefix}-${index}`}
                          disabled={pending || choice !== null}
                          onClick={() => void choose(threat, 'takedown')}
                        >
                          {t('threats.reportTakedown')}
                        </Button>
                        <Button
                          size="small"
                          isBasic
                          aria-describedby={`${idPrefix}-${index}`}
                          disabled={pending || choice !== null}
                          onClick={() => void choose(threat, 'monitor')}
                        >
                          {t('threats.reportMonitor')}
                        </Button>
                      </Row>
                    ) : null}
                    {choice?.threat === threat && choice.stage === 'checking' ? (
                      <Muted role="status">{t('duplicates.checking')}</Muted>
                    ) : null}
                    {choice?.threat === threat &&
                    choice.stage === 'duplicate' &&
                    choice.duplicates ? (
                      <DuplicateNotice
                        duplicates={choice.duplicates}
                        pending={pending}
                        onLink={() => link(threat.value)}
                        onReportAnyway={() => setChoice({ ...choice, stage: 'confirm' })}
                      />
                    ) : null}
                  </Stack>
                </li>
              ))}
            </Stack>
          ) : null}
          {choice?.stage === 'confirm' ? (
            <ConfirmDialog
              title={t(`threats.confirm.${choice.mode}.title`)}
              confirmLabel={t(`threats.confirm.${choice.mode}.confirm`)}
              pending={pending}
              onCancel={() => setChoice(null)}
              onConfirm={() =>
                void act(`reported.${choice.mode}`, () =>
                  api.reportFoundThreat(ticket.id, choice.threat.value, choice.mode),
                )
              }
            >
              <Stack>
                <DefangedText value={choice.threat.display} />
                <SM>{t(`threats.confirm.${choice.mode}.body`)}</SM>
                {choice.unchecked ? <Muted>{t('duplicates.unchecked')}</Muted> : null}
              </Stack>
            </ConfirmDialog>
          ) : null}
        </Section>
      ) : null}
    </>
  );
}

function placeText(
  t: (key: string, vars?: Record<string, string | number>) => string,
  place: TThreatPlace,
) {
  if (place.in === 'subject') return t('threats.place.subject');
  return t('threats.place.comment', {
    number: place.index + 1,
    visibility: t(place.public ? 'threats.place.public' : 'threats.place.internal'),
    author: t(place.author === 'agent' ? 'threats.place.agent' : 'threats.place.endUser'),
  });
}

function FeedbackAlert({
  feedback,
  onDismiss,
}: {
  feedback: Feedback | null;
  onDismiss: () => void;
}) {
  const { t } = useI18n();
  if (!feedback) return <div role="status" aria-live="polite" />;
  if (feedback.ok)
    return (
      <div role="status" aria-live="polite" data-testid="threat-feedback">
        <Alert type="success">
          <Alert.Paragraph>{t(`threats.done.${feedback.key}`)}</Alert.Paragraph>
          <Alert.Close aria-label={t('common.dismiss')} onClick={onDismiss} />
        </Alert>
      </div>
    );
  const message = errorMessage(feedback.error);
  return (
    <Alert type="error" role="alert" data-testid="threat-feedback">
      <Alert.Paragraph>
        {t(`threats.failed.${feedback.key}`)} {t(message.key, message.vars)}
      </Alert.Paragraph>
      <Alert.Close aria-label={t('common.dismiss')} onClick={onDismiss} />
    </Alert>
  );
}
