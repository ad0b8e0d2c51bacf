import { Tag } from '@zendeskgarden/react-tags';
import { api, type Overview } from '../api';
import { ticketWriteText, timeOfDay, type TicketWriteTone } from '../ticket-write-text';
import { useLanguage, useTexts } from '../i18n/i18n';
import { ActionButton, Row } from '../ui';

const HUE: Record<TicketWriteTone, 'green' | 'yellow' | 'red'> = {
  ok: 'green',
  recovering: 'yellow',
  late: 'yellow',
  failing: 'red',
};

/**
 * Whether incident changes reach the account's tickets: a valid token alone does not say so, and
 * a token Zendesk no longer accepts means no write can happen, whatever the writer last recorded.
 */
export function TicketWrites({ overview }: { overview: Overview }) {
  const texts = useTexts();
  const t = texts.ticketWrites;
  const language = useLanguage();
  const revoked = overview.connection.state !== 'active';
  const text = revoked
    ? {
        tone: 'failing' as const,
        label: t.stopped,
        sentence: t.stoppedSentence,
        needsAuthorisation: true,
      }
    : ticketWriteText(overview.ticketWrites, timeOfDay, t);
  const { subdomain } = overview.account;
  return (
    <>
      <Row label={t.row} testId="ticket-writes">
        <span data-tone={text.tone}>
          <Tag hue={HUE[text.tone]}>{text.label}</Tag> {text.sentence}
        </span>
      </Row>
      {text.tone !== 'ok' && !text.needsAuthorisation ? (
        <Row label={t.waiting}>
          <ActionButton
            id="retry-ticket-writes"
            label={t.retryNow}
            run={async () => {
              const result = await api.retryTicketWrites();
              if (result.pausedUntil)
                return t.pausedUntil(new Date(result.pausedUntil).toLocaleTimeString(language));
              return result.woken === 0 ? t.nothingPutOff : t.woken(result.woken);
            }}
          />
        </Row>
      ) : null}
      {text.needsAuthorisation && overview.connection.state !== 'reauthorization_required' ? (
        <Row label={t.authoriseAgainRow}>
          <a href={`/install?subdomain=${encodeURIComponent(subdomain)}`}>
            {texts.connection.authoriseLink}
          </a>
        </Row>
      ) : null}
    </>
  );
}
