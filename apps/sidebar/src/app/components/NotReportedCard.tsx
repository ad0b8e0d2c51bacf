import { useCallback, useEffect, useId, useMemo, useState, type ComponentProps } from 'react';
import styled from 'styled-components';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { MD, SM } from '@zendeskgarden/react-typography';
import type { ConnectorError } from '../api/connectorErrors';
import type { TReportMode, TSidebarTicket } from '@incident-desk/sidebar-contract';
import type { FoundThreat, ThreatsApi } from '../api/threatsApi';
import { useI18n } from '../hooks/useI18n';
import { useViewer } from '../contexts/viewerContext';
import { useThreatsApi } from '../hooks/useThreatsApi';
import { ActionFeedbackAlert, RetryOrDismiss } from './ActionFeedbackAlert';
import { DefangedText } from './DefangedText';
import { DuplicateNotice, useDuplicateCheck } from './DuplicateCheck';
import { errorMessage } from './errorMessages';
import { ConfirmDialog } from './LazyConfirmDialog';
import { Card, Muted, Row, Stack } from './layout';
import { useActionRunner, type ActionSpec } from './useActionRunner';
import { candidatesOf, ThreatChoices, type Candidate } from './ThreatChoices';

interface Props {
  ticket: TSidebarTicket;
  onChanged: () => void;
}

type Feedback = { ok: boolean; mode: TReportMode } & (
  { ok: true } | { ok: false; error: ConnectorError }
);

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

/** The threats the connector found in the ticket, loaded once and again on retry. */
function useFoundThreats(api: ThreatsApi, ticketId: number) {
  const [threats, setThreats] = useState<FoundThreat[] | null>(null);
  const [loadError, setLoadError] = useState<ConnectorError | null>(null);
  const load = useCallback(async () => {
    setLoadError(null);
    const result = await api.listThreats(ticketId);
    if (result.ok) setThreats(result.value);
    else setLoadError(result.error);
  }, [api, ticketId]);
  useEffect(() => void load(), [load]);
  return { threats, loadError, reload: () => void load() };
}

/** A report of the chosen threat: which mode is being confirmed, and what the report said. */
function useThreatReport(api: ThreatsApi, ticketId: number, onChanged: () => void) {
  const [confirming, setConfirming] = useState<TReportMode | null>(null);
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  async function report(mode: TReportMode, candidate: Candidate) {
    setPending(true);
    setFeedback(null);
    const result = await api.reportFoundThreat(ticketId, candidate.value, mode);
    setPending(false);
    setConfirming(null);
    setFeedback(result.ok ? { ok: true, mode } : { ok: false, mode, error: result.error });
    if (result.ok || result.error.kind === 'conflict') onChanged();
  }
  return { confirming, setConfirming, pending, feedback, setFeedback, report };
}

/**
 * The threat the agent chose (the first until they choose), whether they chose one, and whether
 * they asked to report it although it is already an incident; `onChoose` runs on each choice.
 */
function useThreatChoice(candidates: Candidate[], onChoose: () => void) {
  const [selectedIndex, setSelectedIndex] = useState(0);
  const [chosen, setChosen] = useState(false);
  const [reportAnyway, setReportAnyway] = useState(false);
  const selected = candidates[Math.min(selectedIndex, candidates.length - 1)] ?? null;
  const choose = (index: number) => {
    setSelectedIndex(index);
    setChosen(true);
    setReportAnyway(false);
    onChoose();
  };
  return { selected, chosen, reportAnyway, setReportAnyway, choose };
}

function NotReportedView({ api, ticket, onChanged }: Props & { api: ThreatsApi }) {
  const { t } = useI18n();
  const { canAct } = useViewer();
  const { threats, loadError, reload } = useFoundThreats(api, ticket.id);
  const reporting = useThreatReport(api, ticket.id, onChanged);
  const follow = useActionRunner(onChanged);
  const titleId = useId();
  const candidates = useMemo(() => candidatesOf(ticket.threat, threats), [ticket.threat, threats]);
  const { selected, chosen, reportAnyway, setReportAnyway, choose } = useThreatChoice(
    candidates,
    () => reporting.setFeedback(null),
  );
  const check = useDuplicateCheck(api, ticket.id, selected?.value ?? null);

  // still looking: the same card element the threats then fill in (a reader's place is kept)
  if (!selected && threats === null && loadError === null)
    return (
      <Card aria-labelledby={titleId} data-testid="not-reported" aria-busy>
        <MD tag="h2" isBold id={titleId}>
          {t('unlinked.title')}
        </MD>
        <Muted role="status">{t('threats.looking')}</Muted>
      </Card>
    );
  if (!selected) return <NoThreatCard loadError={loadError} onRetry={reload} />;

  const canReport = check.state === 'none' || check.state === 'unchecked' || reportAnyway;
  return (
    <Card aria-labelledby={titleId} data-testid="not-reported" data-link-state={ticket.linkState}>
      <MD tag="h2" isBold id={titleId}>
        {t('unlinked.title')}
      </MD>
      {/* what the report said comes first: with its retry, it keeps the panel's first screen */}
      <ReportFeedback
        feedback={reporting.feedback}
        onRetry={(mode) => void reporting.report(mode, selected)}
        onDismiss={() => reporting.setFeedback(null)}
      />
      <SM>{candidates.length > 1 ? t('unlinked.chooseBody') : t('unlinked.body')}</SM>
      <ThreatChoices
        candidates={candidates}
        selected={selected}
        disabled={reporting.pending || follow.pending !== null}
        onChoose={choose}
      />
      {loadError ? <LoadFailed error={loadError} onRetry={reload} /> : null}
      {selected.kind === null ? <Muted>{t('unlinked.savedValueNote')}</Muted> : null}
      {check.state === 'checking' ? <Muted role="status">{t('duplicates.checking')}</Muted> : null}
      <KnownIncident
        follow={follow}
        duplicates={check.state === 'found' ? check.duplicates : null}
        onFollow={() => api.linkExisting(ticket.id, selected.value)}
        onReportAnyway={reportAnyway ? undefined : () => setReportAnyway(true)}
      />
      {canReport && !canAct ? <Muted data-testid="read-only">{t('errors.read_only')}</Muted> : null}
      {canReport && canAct ? (
        <ReportButtons
          chosen={chosen}
          pending={reporting.pending}
          onReport={reporting.setConfirming}
        />
      ) : null}
      {reporting.confirming ? (
        <ReportConfirmDialog
          mode={reporting.confirming}
          candidate={selected}
          pending={reporting.pending}
          unchecked={check.state === 'unchecked'}
          onCancel={() => reporting.setConfirming(null)}
          onConfirm={(mode) => void reporting.report(mode, selected)}
        />
      ) : null}
    </Card>
  );
}

/** The incident the threat already is, with "Follow", and what following it said. */
function KnownIncident({
  follow,
  duplicates,
  onFollow,
  onReportAnyway,
}: {
  follow: ReturnType<typeof useActionRunner>;
  duplicates: ComponentProps<typeof DuplicateNotice>['duplicates'] | null;
  onFollow: ActionSpec['run'];
  onReportAnyway: (() => void) | undefined;
}) {
  return (
    <>
      <ActionFeedbackAlert
        feedback={follow.feedback}
        onRetry={(last) => void follow.run(last.action)}
        onDismiss={follow.dismiss}
      />
      {duplicates ? (
        <DuplicateNotice
          duplicates={duplicates}
          pending={follow.pending !== null}
          onFollow={() => void follow.run({ id: 'follow', run: onFollow })}
          onReportAnyway={onReportAnyway}
        />
      ) : null}
    </>
  );
}

/** No threat in the ticket, or the list of threats could not be read. */
function NoThreatCard({
  loadError,
  onRetry,
}: {
  loadError: ConnectorError | null;
  onRetry: () => void;
}) {
  const { t } = useI18n();
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} data-testid="no-threat">
      <MD tag="h2" isBold id={titleId}>
        {t('none.title')}
      </MD>
      {loadError ? <LoadFailed error={loadError} onRetry={onRetry} /> : <SM>{t('none.body')}</SM>}
    </Card>
  );
}

/** Report for takedown or for monitoring; neither is primary until the agent chose a threat. */
function ReportButtons({
  chosen,
  pending,
  onReport,
}: {
  chosen: boolean;
  pending: boolean;
  onReport: (mode: TReportMode) => void;
}) {
  const { t } = useI18n();
  return (
    <Row>
      <Button
        size="small"
        isPrimary={chosen}
        data-emphasis={chosen ? 'primary' : 'secondary'}
        disabled={pending}
        onClick={() => onReport('takedown')}
      >
        {t('threats.reportTakedown')}
      </Button>
      <Button size="small" isBasic disabled={pending} onClick={() => onReport('monitor')}>
        {t('threats.reportMonitor')}
      </Button>
    </Row>
  );
}

function ReportConfirmDialog({
  mode,
  candidate,
  pending,
  unchecked,
  onCancel,
  onConfirm,
}: {
  mode: TReportMode;
  candidate: Candidate;
  pending: boolean;
  /** The duplicate check could not run: the dialog says so. */
  unchecked: boolean;
  onCancel: () => void;
  onConfirm: (mode: TReportMode) => void;
}) {
  const { t } = useI18n();
  return (
    <ConfirmDialog
      title={t(`threats.confirm.${mode}.title`)}
      confirmLabel={t(`threats.confirm.${mode}.confirm`)}
      pending={pending}
      onCancel={onCancel}
      onConfirm={() => onConfirm(mode)}
    >
      <Stack>
        <DefangedText value={candidate.display} />
        <SM>{t(`threats.confirm.${mode}.body`)}</SM>
        {unchecked ? <Muted>{t('duplicates.unchecked')}</Muted> : null}
      </Stack>
    </ConfirmDialog>
  );
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
  onRetry,
  onDismiss,
}: {
  feedback: Feedback | null;
  onRetry: (mode: TReportMode) => void;
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
    <CompactAlert type="error" role="alert" data-testid="threat-feedback">
      <Stack>
        <Alert.Paragraph>
          {t('threats.failed.reported')} {text}
        </Alert.Paragraph>
        <RetryOrDismiss
          error={feedback.error}
          onRetry={() => onRetry(feedback.mode)}
          onDismiss={onDismiss}
        />
      </Stack>
    </CompactAlert>
  );
}

/** An alert without a close icon needs no room for one: the text gets the width instead. */
const CompactAlert = styled(Alert)`
  && {
    padding-right: ${(p) => p.theme.space.sm};
    padding-bottom: ${(p) => p.theme.space.sm};
  }
`;
