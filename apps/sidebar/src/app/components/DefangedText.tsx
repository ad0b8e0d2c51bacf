import styled from 'styled-components';
import { defang } from '../lib/defang';

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
