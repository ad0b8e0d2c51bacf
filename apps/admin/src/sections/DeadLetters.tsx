import { SM } from '@zendeskgarden/react-typography';
import { api, type DeadLetters as TDeadLetters } from '../api';
import { ActionButton, Section, When } from '../ui';

export function DeadLetters({ letters, refresh }: { letters: TDeadLetters; refresh: () => void }) {
  const empty = letters.syncFailures.length === 0 && letters.failedJobs.length === 0;
  return (
    <Section id="dead-letters" title="Dead-letter jobs">
      {empty ? <SM>No failed jobs.</SM> : null}
      <ul>
        {letters.syncFailures.map((failure) => (
          <li key={failure.id} data-testid="sync-failure">
            <SM>
              {failure.queue}
              {failure.ticketId !== null ? `, ticket ${failure.ticketId}` : ''}
              {failure.incidentId ? `, incident ${failure.incidentId}` : ''}: {failure.reason} (
              <When value={failure.createdAt} />){' '}
            </SM>
            <ActionButton
              label="Retry"
              run={async () => {
                await api.retrySyncFailure(failure.id);
                refresh();
                return 'queued again';
              }}
            />
          </li>
        ))}
        {letters.failedJobs.map((job) => (
          <li key={`${job.queue}:${job.id}`} data-testid="failed-job">
            <SM>
              {job.queue} job {job.id}: {job.reason || 'failed'} (<When value={job.failedAt} />
              ){' '}
            </SM>
            <ActionButton
              label="Retry"
              run={async () => {
                await api.retryFailedJob(job.queue, job.id);
                refresh();
                return 'queued again';
              }}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}
