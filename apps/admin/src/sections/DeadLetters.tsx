// Every failed sync of the account, each with its ticket (linked), its incident, what failed, why,
// and what Retry will do. A retried item stays on the page with its progress: queued, then gone
// from the failures (done) or back among them (failed again).
import { useState, type ReactNode } from 'react';
import { Anchor } from '@zendeskgarden/react-buttons';
import { Tag } from '@zendeskgarden/react-tags';
import { SM } from '@zendeskgarden/react-typography';
import { api, type DeadLetters as TDeadLetters } from '../api';
import { ActionButton, Section, When } from '../ui';

interface Retried {
  key: string;
  label: string;
  at: string;
}

function Item(props: {
  testId: string;
  ticketId: number | null;
  ticketUrl: string | null;
  incidentId: string | null;
  incidentUrl: string | null;
  heading: string;
  what: string;
  problem: string;
  retry: string;
  reason: string;
  at: string | null;
  action: ReactNode;
}) {
  return (
    <li
      data-testid={props.testId}
      style={{ padding: '12px 0', borderBottom: '1px solid #e9ebed', listStyle: 'none' }}
    >
      <SM isBold>
        {props.ticketId !== null ? (
          props.ticketUrl ? (
            <Anchor href={props.ticketUrl} isExternal target="_blank" rel="noreferrer">
              Ticket #{props.ticketId}
            </Anchor>
          ) : (
            `Ticket #${props.ticketId}`
          )
        ) : (
          props.heading
        )}
        {props.incidentId ? (
          <>
            {' · '}
            {props.incidentUrl ? (
              <Anchor href={props.incidentUrl} isExternal target="_blank" rel="noreferrer">
                Incident {props.incidentId}
              </Anchor>
            ) : (
              `incident ${props.incidentId}`
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
            <SM tag="span">Technical detail</SM>
          </summary>
          <SM tag="span">{props.reason}</SM>
        </details>
      ) : null}
      <div style={{ marginTop: 4 }}>{props.action}</div>
    </li>
  );
}

export function DeadLetters({ letters, refresh }: { letters: TDeadLetters; refresh: () => void }) {
  const [retried, setRetried] = useState<Retried[]>([]);
  const present = new Set([
    ...letters.syncFailures.map((f) => `failure:${f.id}`),
    ...letters.failedForwards.map((f) => `forward:${f.commentId}`),
    ...letters.failedJobs.map((j) => `job:${j.queue}:${j.id}`),
  ]);
  const empty = present.size === 0;

  function retryButton(key: string, label: string, run: () => Promise<unknown>) {
    return (
      <ActionButton
        label="Retry"
        run={async () => {
          await run();
          setRetried((list) => [
            { key, label, at: new Date().toISOString() },
            ...list.filter((r) => r.key !== key),
          ]);
          refresh();
          return 'Queued again.';
        }}
      />
    );
  }

  return (
    <Section id="dead-letters" title="Failed syncs">
      {retried.length > 0 ? (
        <ul style={{ padding: 0, marginBottom: 12 }} aria-label="Retried">
          {retried.map((r) => (
            <li key={r.key} data-testid="retried" style={{ listStyle: 'none', margin: '4px 0' }}>
              <SM>
                <Tag hue={present.has(r.key) ? 'yellow' : 'blue'}>
                  {present.has(r.key) ? 'Not done yet' : 'Queued again'}
                </Tag>{' '}
                {r.label}: retried <When value={r.at} />.{' '}
                {present.has(r.key)
                  ? 'It is still listed below; reload in a moment to see whether it went through.'
                  : 'The worker runs it in the background; if it fails again it comes back here.'}
              </SM>
            </li>
          ))}
        </ul>
      ) : null}
      {empty ? <SM>No failed syncs.</SM> : null}
      <ul style={{ padding: 0 }}>
        {letters.failedForwards.map((forward) => (
          <Item
            key={`forward:${forward.commentId}`}
            testId="failed-forward"
            ticketId={forward.ticketId}
            ticketUrl={forward.ticketUrl}
            incidentId={forward.incidentId}
            incidentUrl={forward.incidentUrl}
            heading="Comment forward"
            what={forward.what}
            problem={forward.problem}
            retry={forward.retry}
            reason={forward.reason}
            at={forward.updatedAt}
            action={
              forward.canRetry
                ? retryButton(
                    `forward:${forward.commentId}`,
                    `Comment forward of ticket #${forward.ticketId}`,
                    () => api.retryForward(forward.commentId),
                  )
                : null
            }
          />
        ))}
        {letters.syncFailures.map((failure) => (
          <Item
            key={`failure:${failure.id}`}
            testId="sync-failure"
            ticketId={failure.ticketId}
            ticketUrl={failure.ticketUrl}
            incidentId={failure.incidentId}
            incidentUrl={failure.incidentUrl}
            heading="Sync"
            what={failure.what}
            problem={failure.problem}
            retry={failure.retry}
            reason={failure.reason}
            at={failure.createdAt}
            action={
              failure.canRetry
                ? retryButton(
                    `failure:${failure.id}`,
                    failure.ticketId !== null ? `Ticket #${failure.ticketId}` : 'Sync',
                    () => api.retrySyncFailure(failure.id),
                  )
                : null
            }
          />
        ))}
        {letters.failedJobs.map((job) => (
          <Item
            key={`job:${job.queue}:${job.id}`}
            testId="failed-job"
            ticketId={null}
            ticketUrl={null}
            incidentId={null}
            incidentUrl={null}
            heading="Background job"
            what={job.what}
            problem={job.problem}
            retry={job.retry}
            reason={job.reason}
            at={job.failedAt}
            action={retryButton(`job:${job.queue}:${job.id}`, job.what, () =>
              api.retryFailedJob(job.queue, job.id),
            )}
          />
        ))}
      </ul>
    </Section>
  );
}
