import { SM } from '@zendeskgarden/react-typography';
import type { TSnapshot } from '../api/incidentTypes';
import type { TUnavailablePart } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { newestFirst } from '../lib/newestFirst';
import { DateTime } from './DateTime';
import { DefangedText } from './DefangedText';
import { Breakable, Fields, Muted, PlainList, Section, Stack } from './layout';
import { unavailableText } from '../lib/unavailableText';

const NON_DOMAIN_TYPES = ['email', 'phone', 'ipv4'];

function SnapshotItem({ snapshot }: { snapshot: TSnapshot }) {
  const { t } = useI18n();
  const dnsEntries = Object.entries(snapshot.dns ?? {});
  const { whois, certificate } = snapshot;
  const typeKnown =
    snapshot.type === 'incident_created' || snapshot.type === 'incident_status_updated';
  return (
    <li data-testid="snapshot">
      <Stack>
        <SM isBold>
          <DateTime value={snapshot.timestamp} unknownKey="common.unknown" />
        </SM>
        <Muted>
          {typeKnown ? t(`snapshots.type.${snapshot.type}`) : snapshot.type}
          {snapshot.description ? ' · ' : ''}
          <Breakable>{snapshot.description}</Breakable>
        </Muted>
        {dnsEntries.length > 0 ? (
          <Fields
            items={dnsEntries.map(([recordType, answer]) => ({
              label: t('snapshots.dnsRecord', { type: recordType }),
              value: (
                <Breakable>
                  {answer?.rcode ? `${answer.rcode} ` : ''}
                  {(answer?.records ?? []).map((record, i) => (
                    <span key={i}>
                      {i > 0 ? ', ' : ''}
                      <DefangedText value={record} />
                    </span>
                  ))}
                </Breakable>
              ),
            }))}
          />
        ) : null}
        {whois ? (
          <Fields
            items={[
              {
                label: t('snapshots.whoisDomain'),
                value: whois.domain ? <DefangedText value={whois.domain} /> : null,
              },
              { label: t('snapshots.registrarIANAId'), value: whois.registrarIANAId },
              {
                label: t('snapshots.created'),
                value: whois.createdDate ? <DateTime dateOnly value={whois.createdDate} /> : null,
              },
              {
                label: t('snapshots.updated'),
                value: whois.updatedDate ? <DateTime dateOnly value={whois.updatedDate} /> : null,
              },
              {
                label: t('snapshots.expiry'),
                value: whois.expiryDate ? <DateTime dateOnly value={whois.expiryDate} /> : null,
              },
            ]}
          />
        ) : null}
        {certificate ? (
          <Fields
            items={[
              {
                label: t('snapshots.certIssuer'),
                value: certificate.issuer ? <Breakable>{certificate.issuer}</Breakable> : null,
              },
              {
                label: t('snapshots.certSubject'),
                value: certificate.subject ? <DefangedText value={certificate.subject} /> : null,
              },
              {
                label: t('snapshots.certValidFrom'),
                value: certificate.validFrom ? (
                  <DateTime dateOnly value={certificate.validFrom} />
                ) : null,
              },
              {
                label: t('snapshots.certValidTo'),
                value: certificate.validTo ? (
                  <DateTime dateOnly value={certificate.validTo} />
                ) : null,
              },
              {
                label: t('snapshots.certSans'),
                value:
                  certificate.sanEntries && certificate.sanEntries.length > 0 ? (
                    <Breakable>
                      {certificate.sanEntries.map((san, i) => (
                        <span key={i}>
                          {i > 0 ? ', ' : ''}
                          <DefangedText value={san} />
                        </span>
                      ))}
                    </Breakable>
                  ) : null,
              },
            ]}
          />
        ) : null}
      </Stack>
    </li>
  );
}

interface Props {
  snapshots: TSnapshot[];
  incidentType: string;
  unavailable?: TUnavailablePart;
}

export function Snapshots({ snapshots, incidentType, unavailable }: Props) {
  const { t } = useI18n();
  const ordered = newestFirst(snapshots, (s) => s.timestamp);
  let empty: string | null = null;
  if (ordered.length === 0) {
    if (unavailable) empty = unavailableText(t, unavailable);
    else if (NON_DOMAIN_TYPES.includes(incidentType)) empty = t('snapshots.notCaptured');
    else empty = t('snapshots.empty');
  }
  return (
    <Section title={t('snapshots.title')} testId="snapshots">
      {empty ? (
        <Muted>{empty}</Muted>
      ) : (
        <PlainList as="ol" aria-label={t('snapshots.title')}>
          {ordered.map((snapshot) => (
            <SnapshotItem key={snapshot.id} snapshot={snapshot} />
          ))}
        </PlainList>
      )}
    </Section>
  );
}
