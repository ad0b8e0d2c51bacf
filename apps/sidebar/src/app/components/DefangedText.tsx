import styled from 'styled-components';
import { defang, defangLinksIn } from '@incident-desk/threat-text';
import { Breakable } from './layout';

const Code = styled.code`
  font-family: ${(p) => p.theme.fonts.mono};
  font-size: ${(p) => p.theme.fontSizes.sm};
  overflow-wrap: anywhere;
  word-break: break-all;
`;

/** Attacker-controlled URL, domain, email or IP: always text, always defanged. */
export function DefangedText({ value }: { value: string }) {
  return <Code>{defang(value)}</Code>;
}

/**
 * Attacker-controlled free text (an analyst's message, a registrar, a page title): text, with its
 * link-like tokens defanged exactly as the connector's notes show them.
 */
export function DefangedProse({ text }: { text: string }) {
  return <Breakable>{defangLinksIn(text)}</Breakable>;
}
