import { Anchor } from '@zendeskgarden/react-buttons';
import { Tag } from '@zendeskgarden/react-tags';
import { SM } from '@zendeskgarden/react-typography';
import type { TBlocklistListing } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { partnerLinkHref } from '../lib/safeLink';
import { DateTime } from './DateTime';
import { DefangedProse, DefangedText } from './DefangedText';
import { Muted, PlainList, Row, Section } from './layout';

function StatusTag({ status }: { status: string }) {
  const { t } = useI18n();
  if (status === 'listed')
    return (
      <Tag hue="green">
        <span>{t('blocklists.status.listed')}</span>
      </Tag>
    );
  // submitted is protection on its way, so it gets a neutral, hopeful look, never an error colour.
  if (status === 'submitted')
    return (
      <Tag hue="blue">
        <span>{t('blocklists.status.submitted')}</span>
      </Tag>
    );
  return (
    <Tag>
      <span>{status}</span>
    </Tag>
  );
}

export function Blocklists({
  listings,
  attackerHosts,
}: {
  listings: TBlocklistListing[];
  attackerHosts: string[];
}) {
  const { t, lookUp } = useI18n();
  return (
    <Section title={t('blocklists.title')} testId="blocklists">
      {listings.length === 0 ? (
        <Muted>{t('blocklists.empty')}</Muted>
      ) : (
        <PlainList>
          {listings.map((listing, index) => {
            const href = listing.link ? partnerLinkHref(listing.link, attackerHosts) : null;
            return (
              <li key={`${listing.authority}-${index}`} data-testid="blocklist">
                <Row>
                  <SM isBold>
                    <DefangedProse text={listing.authority} />
                  </SM>
                  <StatusTag status={listing.status} />
                </Row>
                <Muted>{lookUp(`blocklists.type.${listing.type}`) ?? listing.type}</Muted>
                {listing.status === 'submitted' ? (
                  <SM>{t('blocklists.submittedExplained')}</SM>
                ) : null}
                <Muted>
                  {t('blocklists.listedAt')}{' '}
                  <DateTime value={listing.listedAt} unknownKey="blocklists.notYetLive" />
                </Muted>
                {listing.link ? (
                  href ? (
                    <Anchor href={href} isExternal target="_blank" rel="noopener noreferrer">
                      {t('blocklists.viewListing', { authority: listing.authority })}
                    </Anchor>
                  ) : (
                    <SM>
                      {t('blocklists.link')} <DefangedText value={listing.link} />
                    </SM>
                  )
                ) : null}
              </li>
            );
          })}
        </PlainList>
      )}
    </Section>
  );
}
