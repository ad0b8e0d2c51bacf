// Every failed sync of the account, each with its ticket (linked), its incident, what failed, why,
// and what Retry will do. A retried item stays on the page with its progress: queued, then gone
// from the failures (done) or back among them (failed again).
import { useState, type ReactNode } from 'react';
import { Anchor } from '@zendeskgarden/react-buttons';
import { Tag } from '@zendeskgarden/react-tags';
import { SM } from '@zendeskgarden/react-typography';
import { api, type DeadLetters as TDeadLetters } from '../api';
import { failureText } from '../dead-letter-text';
import type { Messages } from '../i18n/en';
import { useTexts } from '../i18n/i18n';
import { ActionButton, Section, When } from '../ui';

interface Retried {
  key: string;
  label: string;
  at: string;
}

/** One failed sync as the page lists it, whichever table it comes from. */
interface Letter {
  key: string;
  testId: string;
  heading: string;
  ticketId: number | null;
  ticketUrl: string | null;
  incidentId: string | null;
  /** What the ticket's Incident ID field holds: how agents know the incident. */
  incidentRef: string | null;
  incidentUrl: string | null;
  what: string;
  problem: string;
  retry: string;
  reason: string;
  at: string | null;
  /** What the retried list calls it, and how to retry it; null when it cannot be retried. */
  retryAs: { label: string; run: () => Promise<unknown> } | null;
}

function lettersOf(letters: TDeadLetters, texts: Messages): Letter[] {
  const t = texts.deadLetters;
  const words = (failure: Parameters<typeof failureText>[0]) =>
    failureText(failure, texts.failedSync);
  const none = {
    ticketId: null,
    ticketUrl: null,
    incidentId: null,
    incidentRef: null,
    incidentUrl: null,
  };
  return [
    ...letters.failedForwards.map((forward) => ({
      ...forward,
      ...words(forward),
      key: `forward:${forward.commentId}`,
      testId: 'failed-forward',
      heading: t.commentForward,
      at: forward.updatedAt,
      retryAs: forward.canRetry
        ? {
            label: t.commentForwardOf(forward.ticketId),
            run: () => api.retryForward(forward.commentId),
          }
        : null,
    })),
    ...letters.syncFailures.map((failure) => ({
      ...failure,
      ...words(failure),
      key: `failure:${failure.id}`,
      testId: 'sync-failure',
      heading: t.sync,
      at: failure.createdAt,
      retryAs: failure.canRetry
        ? {
            label: failure.ticketId !== null ? t.ticket(failure.ticketId) : t.sync,
            run: () => api.retrySyncFailure(failure.id),
          }
        : null,
    })),
    ...letters.failedJobs.map((job) => ({
      ...job,
      ...none,
      ...words(job),
      key: `job:${job.queue}:${job.id}`,
      testId: 'failed-job',
      heading: t.backgroundJob,
      at: job.failedAt,
      // "Setup of the account failed on every attempt: retried 10:02."
      retryAs: {
        label: words(job).what.replace(/\.$/, ''),
        run: () => api.retryFailedJob(job.queue, job.id),
      },
    })),
  ];
}

function Item(props: Letter & { action: ReactNode }) {
  const t = useTexts().deadLetters;
  const reference = props.incidentRef ?? props.incidentId;
  return (
    <li
      data-testid={props.testId}
      style={{ padding: '12px 0', borderBottom: '1px solid #e9ebed', listStyle: 'none' }}
    >
      <SM isBold>
        {props.ticketId !== null ? (
          props.ticketUrl ? (
            <Anchor href={props.ticketUrl} isExternal target="_blank" rel="noreferrer">
              {t.ticket(props.ticketId)}
            </Anchor>
          ) : (
            t.ticket(props.ticketId)
          )
        ) : (
          props.heading
        )}
        {reference ? (
          <>
            {' · '}
            {props.incidentUrl ? (
              <Anchor href={props.incidentUrl} isExternal target="_blank" rel="noreferrer">
                {t.incident(reference)}
              </Anchor>
            ) : (
              t.incident(reference)
            )}
          </>
        ) : null}
        {props.at ? (
          <>
            {' · '}
            <When value={props.at} />
          </>
        ) : null}
      </SM>
      <SM>{props.what}</SM>
      <SM>{props.problem}</SM>
      <SM style={{ color: '#68737d' }}>{props.retry}</SM>
      {props.reason ? (
        <details>
          <summary>
            <SM tag="span">{t.technicalDetail}</SM>
          </summary>
          <SM tag="span">{props.reason}</SM>
        </details>
      ) : null}
      <div style={{ marginTop: 4 }}>{props.action}</div>
    </li>
  );
}

export function DeadLetters({ letters, refresh }: { letters: TDeadLetters; refresh: () => void }) {
  const texts = useTexts();
  const t = texts.deadLetters;
  const [retried, setRetried] = useState<Retried[]>([]);
  const listed = lettersOf(letters, texts);
  const present = new Set(listed.map((letter) => letter.key));
  const empty = present.size === 0;

  function retryButton(key: string, label: string, run: () => Promise<unknown>) {
    return (
      <ActionButton
        label={t.retry}
        run={async () => {
          await run();
          setRetried((list) => [
            { key, label, at: new Date().toISOString() },
            ...list.filter((r) => r.key !== key),
          ]);
          refresh();
          return t.queuedAgain;
        }}
      />
    );
  }

  return (
    <Section id="dead-letters" title={t.title}>
      {retried.length > 0 ? (
        <ul style={{ padding: 0, marginBottom: 12 }} aria-label={t.retried}>
          {retried.map((r) => (
            <li key={r.key} data-testid="retried" style={{ listStyle: 'none', margin: '4px 0' }}>
              <SM>
                <Tag hue={present.has(r.key) ? 'yellow' : 'blue'}>
                  {present.has(r.key) ? t.notDoneYet : t.queuedAgainTag}
                </Tag>{' '}
                {r.label}: {t.retriedAt} <When value={r.at} />.{' '}
                {present.has(r.key) ? t.stillListed : t.inBackground}
              </SM>
            </li>
          ))}
        </ul>
      ) : null}
      {empty ? <SM>{t.none}</SM> : null}
      <ul style={{ padding: 0 }}>
        {listed.map((letter) => (
          <Item
            {...letter}
            key={letter.key}
            action={
              letter.retryAs
                ? retryButton(letter.key, letter.retryAs.label, letter.retryAs.run)
                : null
            }
          />
        ))}
      </ul>
    </Section>
  );
}
