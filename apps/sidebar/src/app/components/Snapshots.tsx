import { SM } from '@zendeskgarden/react-typography';
import type { TSnapshot } from '../api/incidentTypes';
import type { TUnavailablePart } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { newestFirst } from '../lib/newestFirst';
import { DateTime } from './DateTime';
import { breakable, day, defanged, textList } from './fieldValues';
import { Breakable, Fields, Muted, PlainList, Section, Stack } from './layout';
import { unavailableText } from '../lib/unavailableText';

const NON_DOMAIN_TYPES = ['email', 'phone', 'ipv4'];

function SnapshotItem({ snapshot }: { snapshot: TSnapshot }) {
  const { t, lookUp } = useI18n();
  const dnsEntries = Object.entries(snapshot.dns ?? {});
  const { whois, certificate } = snapshot;
  return (
    <li data-testid="snapshot">
      <Stack>
        <SM isBold>
          <DateTime value={snapshot.timestamp} unknownKey="common.unknown" />
        </SM>
        <Muted>
          {lookUp(`snapshots.type.${snapshot.type}`) ?? snapshot.type}
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
                  {textList(answer?.records, true)}
                </Breakable>
              ),
            }))}
          />
        ) : null}
        {whois ? (
          <Fields
            items={[
              { label: t('snapshots.whoisDomain'), value: defanged(whois.domain) },
              { label: t('snapshots.registrarIANAId'), value: whois.registrarIANAId },
              { label: t('snapshots.created'), value: day(whois.createdDate) },
              { label: t('snapshots.updated'), value: day(whois.updatedDate) },
              { label: t('snapshots.expiry'), value: day(whois.expiryDate) },
            ]}
          />
        ) : null}
        {certificate ? (
          <Fields
            items={[
              { label: t('snapshots.certIssuer'), value: breakable(certificate.issuer) },
              { label: t('snapshots.certSubject'), value: defanged(certificate.subject) },
              { label: t('snapshots.certValidFrom'), value: day(certificate.validFrom) },
              { label: t('snapshots.certValidTo'), value: day(certificate.validTo) },
              { label: t('snapshots.certSans'), value: textList(certificate.sanEntries, true) },
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
