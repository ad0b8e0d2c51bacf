import { createContext, useContext, useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { MD, SM } from '@zendeskgarden/react-typography';
import { getColor } from '@zendeskgarden/react-theming';

export const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${(p) => p.theme.space.sm};
  min-width: 0;
`;

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${(p) => p.theme.space.xs};
  min-width: 0;
`;

/** The one bordered card a state of the sidebar is told in (the status card, the report card). */
export const Card = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${(p) => p.theme.space.sm};
  padding: ${(p) => p.theme.space.sm};
  border: ${(p) => p.theme.borders.sm}
    ${(p) => getColor({ theme: p.theme, variable: 'border.default' })};
  border-radius: ${(p) => p.theme.borderRadii.md};
  min-width: 0;
`;

const SectionBox = styled.section`
  padding: ${(p) => p.theme.space.sm} 0;
  border-top: ${(p) => p.theme.borders.sm}
    ${(p) => getColor({ theme: p.theme, variable: 'border.default' })};
  min-width: 0;
`;

/**
 * Where a Section is drawn: on its own (with a heading), in an accordion panel whose header is its
 * title, or in a panel that merges several sections (each keeps a small heading).
 */
export type TSectionFrame = 'page' | 'panel' | 'merged-panel';
export const SectionFrame = createContext<TSectionFrame>('page');

export function Section({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  const frame = useContext(SectionFrame);
  if (frame === 'panel') return <Stack data-testid={testId}>{children}</Stack>;
  if (frame === 'merged-panel')
    return (
      <Stack aria-labelledby={id} role="group" data-testid={testId}>
        <SM tag="h3" isBold id={id}>
          {title}
        </SM>
        {children}
      </Stack>
    );
  return (
    <SectionBox aria-labelledby={id} data-testid={testId}>
      <MD tag="h2" isBold id={id}>
        {title}
      </MD>
      <Stack>{children}</Stack>
    </SectionBox>
  );
}

const List = styled.dl`
  display: grid;
  grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
  gap: ${(p) => p.theme.space.xxs} ${(p) => p.theme.space.sm};
  margin: 0;
  & > dt {
    color: ${(p) => getColor({ theme: p.theme, variable: 'foreground.subtle' })};
  }
  & > dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

export interface FieldItem {
  label: string;
  value: ReactNode;
}

/** A definition list that drops empty values: an absent field is simply not shown. */
export function Fields({ items }: { items: FieldItem[] }) {
  const present = items.filter(
    (item) => item.value !== null && item.value !== undefined && item.value !== '',
  );
  if (present.length === 0) return null;
  return (
    <List>
      {present.map((item) => (
        <FieldRow key={item.label} label={item.label} value={item.value} />
      ))}
    </List>
  );
}

function FieldRow({ label, value }: FieldItem) {
  return (
    <>
      <SM tag="dt">{label}</SM>
      <SM tag="dd">{value}</SM>
    </>
  );
}

export const Muted = styled(SM)`
  color: ${(p) => getColor({ theme: p.theme, variable: 'foreground.subtle' })};
`;

export const PlainList = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: flex;
  flex-direction: column;
  gap: ${(p) => p.theme.space.xs};
  min-width: 0;
`;

export const Breakable = styled.span`
  overflow-wrap: anywhere;
  word-break: break-word;
`;
