import { useState, type ReactNode } from 'react';
import { Accordion } from '@zendeskgarden/react-accordions';
import type { TSidebarTicketView, TPartName } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import type { TranslationKey } from '../lib/i18n';
import { detailSectionsFor, type TDetailSection } from '../lib/detailSections';
import { hostsOf } from '../lib/safeLink';
import { Blocklists } from './Blocklists';
import { Credits } from './Credits';
import { HistoryTimeline } from './HistoryTimeline';
import { IncidentOverview, subjectOf } from './IncidentOverview';
import { Infrastructure } from './Infrastructure';
import { Insights } from './Insights';
import { LiveState } from './LiveState';
import { Snapshots } from './Snapshots';
import { TakedownAttempts } from './TakedownAttempts';
import { SectionFrame } from './layout';

const TITLE_KEYS: Record<TDetailSection, TranslationKey> = {
  history: 'history.title',
  liveState: 'liveState.title',
  infrastructure: 'infrastructure.title',
  blocklists: 'blocklists.title',
  attempts: 'attempts.title',
  insightsSnapshots: 'details.insightsSnapshots',
  overview: 'details.overview',
  credits: 'credits.title',
};

/** Everything below the status card, collapsed until the agent opens it. */
export function IncidentDetails({ view }: { view: TSidebarTicketView }) {
  const { t } = useI18n();
  // Expansion is kept by section, not by position, so a section appearing on refresh moves nothing.
  const [expanded, setExpanded] = useState<TDetailSection[]>([]);
  const incident = view.incident;
  if (!incident) return null;
  const sections = detailSectionsFor(view);
  if (sections.length === 0) return null;
  const unavailable = (part: TPartName) => view.unavailable.find((u) => u.part === part);

  const content = (section: TDetailSection): ReactNode => {
    switch (section) {
      case 'history':
        return <HistoryTimeline history={incident.history} />;
      case 'liveState':
        return <LiveState state={incident.incidentState} />;
      case 'infrastructure':
        return <Infrastructure incident={incident} />;
      case 'blocklists':
        return (
          <Blocklists
            listings={incident.blocklists}
            attackerHosts={hostsOf([subjectOf(incident), incident.url, incident.domain])}
          />
        );
      case 'attempts':
        return (
          <TakedownAttempts
            attempts={view.takedownAttempts}
            unavailable={unavailable('takedownAttempts')}
          />
        );
      case 'insightsSnapshots':
        return (
          <SectionFrame.Provider value="merged-panel">
            {incident.insights ? <Insights insights={incident.insights} /> : null}
            {view.snapshots.length > 0 || unavailable('snapshots') ? (
              <Snapshots
                snapshots={view.snapshots}
                incidentType={incident.incidentType}
                unavailable={unavailable('snapshots')}
              />
            ) : null}
          </SectionFrame.Provider>
        );
      case 'overview':
        return <IncidentOverview incident={incident} />;
      case 'credits':
        return <Credits usage={view.usage} unavailable={unavailable('usage')} />;
    }
  };

  return (
    <Accordion
      level={2}
      isCompact
      isExpandable
      aria-label={t('details.label')}
      expandedSections={expanded.map((id) => sections.indexOf(id)).filter((index) => index >= 0)}
      onChange={(index: number) => {
        const id = sections[index];
        if (!id) return;
        setExpanded((open) =>
          open.includes(id) ? open.filter((other) => other !== id) : [...open, id],
        );
      }}
      data-testid="details"
    >
      {sections.map((section) => (
        <Accordion.Section key={section} data-testid={`details-${section}`}>
          <Accordion.Header>
            <Accordion.Label>{t(TITLE_KEYS[section])}</Accordion.Label>
          </Accordion.Header>
          <Accordion.Panel>
            <SectionFrame.Provider value="panel">{content(section)}</SectionFrame.Provider>
          </Accordion.Panel>
        </Accordion.Section>
      ))}
    </Accordion>
  );
}
