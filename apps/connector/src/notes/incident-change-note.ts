// The one note a coalesced ticket update carries: every incident change waiting for the ticket,
// in order, written for an agent in the account's language. A status change and the history entry
// that accompanies it read as one change; a burst of takedown updates reads as one paragraph naming
// what is new (listings, attempts, snapshots). No machine ids: the events the note covers and the
// write's reference travel in the update's audit metadata (sync/ticket-writes/write-metadata.ts).
import { capNoteBody, NOTE_MESSAGE_MAX_CHARS, notePlain, noteText } from './note-limits';
import { hasNews, type TakedownNews } from './takedown-news';
import { statusLabelIn, statusMeaningIn, type NoteTexts } from './texts';

export type ChangeEntry =
  | { kind: 'status'; status: string | null; supersededBy?: string | null }
  /** `fromHistory`: the event did not carry the message; it was read from the incident's history. */
  | { kind: 'history'; message: string | null; fromHistory?: boolean }
  /** `news` absent on changes recorded before the news was read: they add no line. */
  | { kind: 'takedown'; news?: TakedownNews }
  | { kind: 'action_required'; reason: string | null; reopened: boolean };

export interface NoteChange {
  incidentId: string;
  eventAt: Date;
  entry: ChangeEntry;
}

/** A history entry this close to a status change of the same incident is its companion. */
const COMPANION_PAIRING_MS = 60_000;

function text(value: string): string {
  return noteText(value, NOTE_MESSAGE_MAX_CHARS);
}

/**
 * Where a kind of change without its note text fails to compile; at run time a change of a kind
 * this version does not know (a row from a newer one) adds no line.
 */
function noNoteText(_entry: never): void {}

interface Paragraph {
  lines: string[];
}

function statusParagraph(
  t: NoteTexts,
  status: string | null,
  message: string | null,
  superseded?: string | null,
): Paragraph {
  const lines: string[] = [];
  if (status === null) {
    lines.push(t.change.statusNotGiven);
  } else {
    lines.push(t.change.status(notePlain(statusLabelIn(t, status))));
    const meaning = statusMeaningIn(t, status);
    if (meaning) lines.push(meaning);
  }
  if (message) lines.push(t.change.analyst(text(message)));
  if (superseded !== undefined) {
    lines.push(t.change.superseded(superseded ? notePlain(statusLabelIn(t, superseded)) : null));
  } else if (status === 'approval_required') {
    lines.push(t.change.nextStepApproval);
  } else if (status === 'action_required') {
    lines.push(t.change.nextStepAction);
  }
  return { lines };
}

/** A burst of takedown news as one: the latest listings, every attempt, the snapshots summed. */
function mergeNews(all: TakedownNews[]): TakedownNews {
  const merged: TakedownNews = {};
  const ended = new Map<number, string>();
  for (const news of all) {
    if (news.listed) merged.listed = news.listed;
    if (news.submitted) merged.submitted = news.submitted;
    if (news.attemptsSent) {
      const before = merged.attemptsSent;
      merged.attemptsSent = {
        from: Math.min(before?.from ?? news.attemptsSent.from, news.attemptsSent.from),
        to: Math.max(before?.to ?? news.attemptsSent.to, news.attemptsSent.to),
        registrar: news.attemptsSent.registrar ?? before?.registrar ?? null,
      };
    }
    for (const attempt of news.attemptsEnded ?? []) ended.set(attempt.number, attempt.outcome);
    if (news.snapshots) merged.snapshots = (merged.snapshots ?? 0) + news.snapshots;
  }
  if (ended.size > 0)
    merged.attemptsEnded = [...ended]
      .sort(([a], [b]) => a - b)
      .map(([number, outcome]) => ({ number, outcome }));
  return merged;
}

function takedownLines(t: NoteTexts, news: TakedownNews): string[] {
  const names = (list: string[]) => list.map((name) => notePlain(name));
  return [
    ...(news.listed ? [t.takedown.listed(names(news.listed.names))] : []),
    ...(news.submitted ? [t.takedown.submitted(names(news.submitted.names))] : []),
    ...(news.attemptsSent
      ? [
          t.takedown.attemptsSent(
            news.attemptsSent.from,
            news.attemptsSent.to,
            news.attemptsSent.registrar === null ? null : notePlain(news.attemptsSent.registrar),
          ),
        ]
      : []),
    ...(news.attemptsEnded ?? []).map((attempt) =>
      t.takedown.attemptEnded(attempt.number, notePlain(attempt.outcome)),
    ),
    ...(news.snapshots ? [t.takedown.snapshots(news.snapshots)] : []),
  ];
}

/**
 * The note body (without the marker) for the changes, oldest first; undefined when none of them
 * has anything to tell (takedown events that found nothing new).
 */
export function incidentChangeNote(
  changes: NoteChange[],
  t: NoteTexts,
  dashboardUrl?: string,
): string | undefined {
  const ordered = [...changes].sort((a, b) => a.eventAt.getTime() - b.eventAt.getTime());
  const paragraphs: Paragraph[] = [];
  let statuses = 0;

  const { messageFor, used } = pairCompanions(ordered);

  for (let index = 0; index < ordered.length; index += 1) {
    if (used.has(index)) continue;
    const { entry } = ordered[index]!;
    switch (entry.kind) {
      case 'status':
        statuses += 1;
        paragraphs.push(
          statusParagraph(t, entry.status, messageFor.get(index) ?? null, entry.supersededBy),
        );
        break;
      case 'history':
        paragraphs.push({
          lines: [entry.message ? t.change.analyst(text(entry.message)) : t.change.historyUpdated],
        });
        break;
      case 'takedown': {
        const burst: TakedownNews[] = entry.news ? [entry.news] : [];
        while (ordered[index + 1]?.entry.kind === 'takedown') {
          index += 1;
          const next = ordered[index]!.entry;
          if (next.kind === 'takedown' && next.news) burst.push(next.news);
        }
        const news = mergeNews(burst);
        if (hasNews(news)) paragraphs.push({ lines: takedownLines(t, news) });
        break;
      }
      case 'action_required':
        paragraphs.push({ lines: actionRequiredLines(t, entry) });
        break;
      default:
        noNoteText(entry);
    }
  }
  if (paragraphs.length === 0) return undefined;
  return noteBody(t, oneNextStep(t, paragraphs), statuses, dashboardUrl);
}

/**
 * A note asks for one next step: when an action_required status and its request both say it, the
 * last paragraph that says it keeps it (the request it answers comes just before).
 */
function oneNextStep(t: NoteTexts, paragraphs: Paragraph[]): Paragraph[] {
  const steps = new Set([t.change.nextStepApproval, t.change.nextStepAction]);
  const last = paragraphs.findLastIndex((p) => p.lines.some((line) => steps.has(line)));
  return paragraphs.map((paragraph, i) =>
    i >= last ? paragraph : { lines: paragraph.lines.filter((line) => !steps.has(line)) },
  );
}

/**
 * A history entry pairs with the nearest unpaired status change of the same incident: its message
 * goes with the status (`messageFor`, by the status's index) and it has no paragraph of its own.
 */
function pairCompanions(ordered: NoteChange[]): {
  messageFor: Map<number, string>;
  used: Set<number>;
} {
  const used = new Set<number>();
  const companionOf = new Map<number, number>();
  ordered.forEach((change, index) => {
    if (change.entry.kind !== 'history' || !change.entry.message) return;
    let best: number | undefined;
    ordered.forEach((other, otherIndex) => {
      if (other.entry.kind !== 'status' || other.incidentId !== change.incidentId) return;
      if ([...companionOf.values()].includes(otherIndex)) return;
      const gap = Math.abs(other.eventAt.getTime() - change.eventAt.getTime());
      if (gap > COMPANION_PAIRING_MS) return;
      if (
        best === undefined ||
        gap < Math.abs(ordered[best]!.eventAt.getTime() - change.eventAt.getTime())
      )
        best = otherIndex;
    });
    if (best !== undefined) companionOf.set(index, best);
  });
  const messageFor = new Map<number, string>();
  for (const [history, status] of companionOf) {
    const entry = ordered[history]!.entry;
    if (entry.kind === 'history' && entry.message) messageFor.set(status, entry.message);
    used.add(history);
  }
  return { messageFor, used };
}

function actionRequiredLines(
  t: NoteTexts,
  entry: Extract<NoteChange['entry'], { kind: 'action_required' }>,
): string[] {
  const lines = [
    t.change.actionRequired,
    entry.reason ? t.change.request(text(entry.reason)) : t.change.noReason,
    t.change.nextStepAction,
  ];
  if (!entry.reopened) lines.push(t.change.newerShown);
  return lines;
}

/** The note: a title, the paragraphs (bulleted when several), the dashboard link; capped. */
function noteBody(
  t: NoteTexts,
  paragraphs: Paragraph[],
  statuses: number,
  dashboardUrl: string | undefined,
): string {
  const title =
    paragraphs.length === 1 && statuses <= 1
      ? t.change.titleOne
      : t.change.titleMany(paragraphs.length);
  const body =
    paragraphs.length === 1
      ? paragraphs[0]!.lines
      : paragraphs.flatMap((paragraph, i) => [
          ...(i === 0 ? [] : ['']),
          ...paragraph.lines.map((line, j) => (j === 0 ? `• ${line}` : `  ${line}`)),
        ]);
  return capNoteBody(
    [title, '', ...body, ...(dashboardUrl ? ['', t.change.dashboard(dashboardUrl)] : [])].join(
      '\n',
    ),
  );
}
