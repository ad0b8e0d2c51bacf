import { createGlobalStyle } from 'styled-components';

// Garden components style themselves but leave the page's base font to the app (no bedrock CSS here).
export const GlobalStyle = createGlobalStyle`
  html, body {
    margin: 0;
    padding: 0;
    font-family: ${(p) => p.theme.fonts.system};
    font-size: ${(p) => p.theme.fontSizes.md};
    line-height: ${(p) => p.theme.lineHeights.md};
    color: ${(p) => p.theme.palette.grey?.[800] ?? 'inherit'};
    -webkit-font-smoothing: antialiased;
  }
`;
