import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import styled from 'styled-components';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { getColor } from '@zendeskgarden/react-theming';
import { MD, SM } from '@zendeskgarden/react-typography';
import { normalizeThreat } from '@incident-desk/threat-text';
import type { ConnectorError } from '../api/connectorErrors';
import type { TReportMode, TSidebarTicket } from '@incident-desk/sidebar-contract';
import type { FoundThreat, TThreatKind, TThreatPlace, ThreatsApi } from '../api/threatsApi';
import { useI18n } from '../hooks/useI18n';
import { useViewer } from '../contexts/viewerContext';
import { useThreatsApi } from '../hooks/useThreatsApi';
import type { Translate } from '../lib/i18n';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { DefangedText } from './DefangedText';
import { DuplicateNotice, useDuplicateCheck } from './DuplicateCheck';
import { errorMessage } from './errorMessages';
import { ConfirmDialog } from './LazyConfirmDialog';
import { Card, Muted, Row, Stack } from './layout';
import { useActionRunner } from './useActionRunner';

interface Props {
  ticket: TSidebarTicket;
  onChanged: () => void;
}

/** A threat the agent may report: the saved Threat field, or one found in the conversation. */
interface Candidate {
  /** What a report or a duplicate check sends (the connector normalises it again). */
  value: string;
  display: string;
  /** null for the saved Threat field value, labelled as such. */
  kind: TThreatKind | null;
  seenIn: TThreatPlace[];
}

/**
 * The saved Threat field first (the agent's own choice), then what the connector found, best
 * takedown candidate first (it ranks them); the saved value is not listed twice.
 */
function candidatesOf(saved: string | null, found: FoundThreat[] | null): Candidate[] {
  const field = saved?.trim();
  // found values are normalised; the saved value is compared in the same form (an agent may have
  // typed it with a trailing slash or capitals), so one threat is one choice
  const key = field ? normalizeThreat(field) : undefined;
  const same = found?.find((threat) => threat.value === key);
  const fromField = field
    ? [{ value: field, display: field, kind: null, seenIn: same?.seenIn ?? [] }]
    : [];
  return [...fromField, ...(found ?? []).filter((threat) => threat !== same)];
}

type Feedback = { ok: true; mode: TReportMode } | { ok: false; error: ConnectorError };

/**
 * A ticket with no incident yet, in one card: the threat to report (the Threat field, or the best
 * threat found in the conversation, the others one choice away), whether it is already an incident
 * ("Follow incident …" comes before any new report), and the report itself. No button is primary
 * until the agent chooses (Zendesk's guidance for a sidebar app's first load).
 */
export function NotReportedCard({ ticket, onChanged }: Props) {
  const api = useThreatsApi();
  if (!api) return null;
  return <NotReportedView api={api} ticket={ticket} onChanged={onChanged} />;
}

function NotReportedView({ api, ticket, onChanged }: Props & { api: ThreatsApi }) {
  const { t } = useI18n();
  const [threats, setThreats] = useState<FoundThreat[] | null>(null);
  const [loadError, setLoadError] = useState<ConnectorError | null>(null);
  const [selectedIndex, setSelectedIndex] = useState(0);
  const [chosen, setChosen] = useState(false);
  const [reportAnyway, setReportAnyway] = useState(false);
  const [confirming, setConfirming] = useState<TReportMode | null>(null);
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const follow = useActionRunner(onChanged);
  const titleId = useId();
  const radioName = useId();

  const load = useCallback(async () => {
    setLoadError(null);
    const result = await api.listThreats(ticket.id);
    if (result.ok) setThreats(result.value);
    else setLoadError(result.error);
  }, [api, ticket.id]);
  useEffect(() => void load(), [load]);

  const candidates = useMemo(() => candidatesOf(ticket.threat, threats), [ticket.threat, threats]);
  const selected = candidates[Math.min(selectedIndex, candidates.length - 1)] ?? null;
  const check = useDuplicateCheck(api, ticket.id, selected?.value ?? null);

  const choose = (index: number) => {
    setSelectedIndex(index);
    setChosen(true);
    setReportAnyway(false);
    setFeedback(null);
  };

  async function report(mode: TReportMode, candidate: Candidate) {
    setPending(true);
    setFeedback(null);
    const result = await api.reportFoundThreat(ticket.id, candidate.value, mode);
    setPending(false);
    setConfirming(null);
    setFeedback(result.ok ? { ok: true, mode } : { ok: false, error: result.error });
    if (result.ok || result.error.kind === 'conflict') onChanged();
  }

  const still = threats === null && loadError === null;
  if (!selected) {
    if (still)
      return (
        <Card aria-labelledby={titleId} data-testid="not-reported" aria-busy>
          <MD tag="h2" isBold id={titleId}>
            {t('unlinked.title')}
          </MD>
          <Muted role="status">{t('threats.looking')}</Muted>
        </Card>
      );
    return (
      <Card aria-labelledby={titleId} data-testid="no-threat">
        <MD tag="h2" isBold id={titleId}>
          {t('none.title')}
        </MD>
        {loadError ? (
          <LoadFailed error={loadError} onRetry={() => void load()} />
        ) : (
          <SM>{t('none.body')}</SM>
        )}
      </Card>
    );
  }

  const duplicate = check.state === 'found' ? check.duplicates : null;
  const { canAct } = useViewer();
  const canReport = check.state === 'none' || check.state === 'unchecked' || reportAnyway;
  return (
    <Card aria-labelledby={titleId} data-testid="not-reported" data-link-state={ticket.linkState}>
      <MD tag="h2" isBold id={titleId}>
        {t('unlinked.title')}
      </MD>
      <SM>{candidates.length > 1 ? t('unlinked.chooseBody') : t('unlinked.body')}</SM>
      {candidates.length > 1 ? (
        <Choices>
          <Legend>{t('threats.title')}</Legend>
          {candidates.map((candidate, index) => (
            <Choice key={`${candidate.kind}:${candidate.value}`} data-testid="found-threat">
              <input
                type="radio"
                name={radioName}
                checked={candidate === selected}
                disabled={pending || follow.pending !== null}
                onChange={() => choose(index)}
              />
              <CandidateText candidate={candidate} />
            </Choice>
          ))}
        </Choices>
      ) : (
        <div data-testid="found-threat">
          <CandidateText candidate={selected} />
        </div>
      )}
      {loadError ? <LoadFailed error={loadError} onRetry={() => void load()} /> : null}
      {selected.kind === null ? <Muted>{t('unlinked.savedValueNote')}</Muted> : null}
      {check.state === 'checking' ? <Muted role="status">{t('duplicates.checking')}</Muted> : null}
      <ActionFeedbackAlert
        feedback={follow.feedback}
        onRetry={(last) => void follow.run(last.action)}
        onDismiss={follow.dismiss}
      />
      {duplicate ? (
        <DuplicateNotice
          duplicates={duplicate}
          pending={follow.pending !== null}
          onFollow={() =>
            void follow.run({
              id: 'follow',
              run: () => api.linkExisting(ticket.id, selected.value),
            })
          }
          onReportAnyway={reportAnyway ? undefined : () => setReportAnyway(true)}
        />
      ) : null}
      <ReportFeedback feedback={feedback} onDismiss={() => setFeedback(null)} />
      {canReport && !canAct ? <Muted data-testid="read-only">{t('errors.read_only')}</Muted> : null}
      {canReport && canAct ? (
        <Row>
          <Button
            size="small"
            isPrimary={chosen}
            data-emphasis={chosen ? 'primary' : 'secondary'}
            disabled={pending}
            onClick={() => setConfirming('takedown')}
          >
            {t('threats.reportTakedown')}
          </Button>
          <Button size="small" isBasic disabled={pending} onClick={() => setConfirming('monitor')}>
            {t('threats.reportMonitor')}
          </Button>
        </Row>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t(`threats.confirm.${confirming}.title`)}
          confirmLabel={t(`threats.confirm.${confirming}.confirm`)}
          pending={pending}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void report(confirming, selected)}
        >
          <Stack>
            <DefangedText value={selected.display} />
            <SM>{t(`threats.confirm.${confirming}.body`)}</SM>
            {check.state === 'unchecked' ? <Muted>{t('duplicates.unchecked')}</Muted> : null}
          </Stack>
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}

const Choices = styled.fieldset`
  display: flex;
  flex-direction: column;
  gap: ${(p) => p.theme.space.xs};
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
`;

const Legend = styled.legend`
  padding: 0;
  margin-bottom: ${(p) => p.theme.space.xxs};
  font-size: ${(p) => p.theme.fontSizes.sm};
  font-weight: ${(p) => p.theme.fontWeights.semibold};
`;

const Choice = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${(p) => p.theme.space.xs};
  min-width: 0;
  cursor: pointer;
  & > input {
    margin: ${(p) => p.theme.space.xxs} 0 0;
    flex: none;
    accent-color: ${(p) => getColor({ theme: p.theme, variable: 'foreground.primary' })};
  }
`;

function CandidateText({ candidate }: { candidate: Candidate }) {
  const { t } = useI18n();
  return (
    <Stack style={{ gap: 0 }}>
      <Row>
        <SM isBold>
          {candidate.kind ? t(`threats.kind.${candidate.kind}`) : t('unlinked.threat')}
        </SM>
        <DefangedText value={candidate.display} />
      </Row>
      {candidate.seenIn.length > 0 ? (
        <Muted>
          {t('threats.seenIn')} {candidate.seenIn.map((place) => placeText(t, place)).join('; ')}
        </Muted>
      ) : null}
    </Stack>
  );
}

function placeText(t: Translate, place: TThreatPlace) {
  if (place.in === 'subject') return t('threats.place.subject');
  return t('threats.place.comment', {
    number: place.index + 1,
    visibility: t(place.public ? 'threats.place.public' : 'threats.place.internal'),
    author: t(place.author === 'agent' ? 'threats.place.agent' : 'threats.place.endUser'),
  });
}

function LoadFailed({ error, onRetry }: { error: ConnectorError; onRetry: () => void }) {
  const { t } = useI18n();
  const message = errorMessage(error);
  return (
    <Alert type="warning" role="alert" data-testid="threats-load-failed">
      <Stack>
        <Alert.Paragraph>
          {t('threats.loadFailed')} {t(message.key, message.vars)}
        </Alert.Paragraph>
        <Row>
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Row>
      </Stack>
    </Alert>
  );
}

function ReportFeedback({
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
          <Alert.Paragraph>{t(`threats.done.reported.${feedback.mode}`)}</Alert.Paragraph>
          <Alert.Close aria-label={t('common.dismiss')} onClick={onDismiss} />
        </Alert>
      </div>
    );
  const message = errorMessage(feedback.error);
  // the report's own words where they say more (what was and was not done), else the generic ones
  const text =
    feedback.error.kind === 'conflict'
      ? t('threats.failed.conflict')
      : feedback.error.kind === 'zendesk_unavailable'
        ? t('threats.failed.zendesk_unavailable')
        : t(message.key, message.vars);
  return (
    <Alert type="error" role="alert" data-testid="threat-feedback">
      <Alert.Paragraph>
        {t('threats.failed.reported')} {text}
      </Alert.Paragraph>
      <Alert.Close aria-label={t('common.dismiss')} onClick={onDismiss} />
    </Alert>
  );
}
