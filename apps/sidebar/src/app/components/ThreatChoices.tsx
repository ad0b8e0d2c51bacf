import { useId } from 'react';
import styled from 'styled-components';
import { getColor } from '@zendeskgarden/react-theming';
import { SM } from '@zendeskgarden/react-typography';
import { normalizeThreat } from '@incident-desk/threat-text';
import type { FoundThreat, TThreatKind, TThreatPlace } from '../api/threatsApi';
import { useI18n } from '../hooks/useI18n';
import type { Translate } from '../lib/i18n';
import { DefangedText } from './DefangedText';
import { Muted, Row, Stack } from './layout';

/** A threat the agent may report: the saved Threat field, or one found in the conversation. */
export interface Candidate {
  /** What a report or a duplicate check sends (the connector normalises it again). */
  value: string;
  display: string;
  /** null for the saved Threat field value, labelled as such. */
  kind: TThreatKind | null;
  seenIn: TThreatPlace[];
}

/**
 * The saved Threat field first (the agent's own choice), then what the connector found, best
 * takedown candidate first (it ranks them); the saved value is not listed twice.
 */
export function candidatesOf(saved: string | null, found: FoundThreat[] | null): Candidate[] {
  const field = saved?.trim();
  // found values are normalised; the saved value is compared in the same form (an agent may have
  // typed it with a trailing slash or capitals), so one threat is one choice
  const key = field ? normalizeThreat(field) : undefined;
  const same = found?.find((threat) => threat.value === key);
  const fromField = field
    ? [{ value: field, display: field, kind: null, seenIn: same?.seenIn ?? [] }]
    : [];
  return [...fromField, ...(found ?? []).filter((threat) => threat !== same)];
}

/** The threats to choose from (radio buttons), or the only one. */
export function ThreatChoices({
  candidates,
  selected,
  disabled,
  onChoose,
}: {
  candidates: Candidate[];
  selected: Candidate;
  disabled: boolean;
  onChoose: (index: number) => void;
}) {
  const { t } = useI18n();
  const radioName = useId();
  if (candidates.length <= 1)
    return (
      <div data-testid="found-threat">
        <CandidateText candidate={selected} />
      </div>
    );
  return (
    <Choices>
      <Legend>{t('threats.title')}</Legend>
      {candidates.map((candidate, index) => (
        <Choice key={`${candidate.kind}:${candidate.value}`} data-testid="found-threat">
          <input
            type="radio"
            name={radioName}
            checked={candidate === selected}
            disabled={disabled}
            onChange={() => onChoose(index)}
          />
          <CandidateText candidate={candidate} />
        </Choice>
      ))}
    </Choices>
  );
}

const Choices = styled.fieldset`
  display: flex;
  flex-direction: column;
  gap: ${(p) => p.theme.space.xs};
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
`;

const Legend = styled.legend`
  padding: 0;
  margin-bottom: ${(p) => p.theme.space.xxs};
  font-size: ${(p) => p.theme.fontSizes.sm};
  font-weight: ${(p) => p.theme.fontWeights.semibold};
`;

const Choice = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${(p) => p.theme.space.xs};
  min-width: 0;
  cursor: pointer;
  & > input {
    margin: ${(p) => p.theme.space.xxs} 0 0;
    flex: none;
    accent-color: ${(p) => getColor({ theme: p.theme, variable: 'foreground.primary' })};
  }
`;

function CandidateText({ candidate }: { candidate: Candidate }) {
  const { t } = useI18n();
  return (
    <Stack style={{ gap: 0 }}>
      <Row>
        <SM isBold>
          {candidate.kind ? t(`threats.kind.${candidate.kind}`) : t('unlinked.threat')}
        </SM>
        <DefangedText value={candidate.display} />
      </Row>
      {candidate.seenIn.length > 0 ? (
        <Muted>
          {t('threats.seenIn')} {candidate.seenIn.map((place) => placeText(t, place)).join('; ')}
        </Muted>
      ) : null}
    </Stack>
  );
}

function placeText(t: Translate, place: TThreatPlace) {
  if (place.in === 'subject') return t('threats.place.subject');
  return t('threats.place.comment', {
    number: place.index + 1,
    visibility: t(place.public ? 'threats.place.public' : 'threats.place.internal'),
    author: t(place.author === 'agent' ? 'threats.place.agent' : 'threats.place.endUser'),
  });
}
