import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { App } from './App';
import { ClientProvider } from './contexts/ClientProvider';
import { TranslationProvider } from './contexts/TranslationProvider';
import { GlobalStyle } from './components/GlobalStyle';
import { markStage } from './lib/perfMarks';
import type { ZafClient } from './zaf/zafClient';

markStage('ui-loaded');

function MountedMark() {
  useEffect(() => markStage('app-mounted'), []);
  return null;
}

/** Renders the app into `container` with the client the boot code already initialised. */
export function mount(container: HTMLElement, client: ZafClient | false): void {
  createRoot(container).render(
    <ThemeProvider>
      <GlobalStyle />
      <MountedMark />
      <ClientProvider init={() => client}>
        <TranslationProvider>
          <App />
        </TranslationProvider>
      </ClientProvider>
    </ThemeProvider>,
  );
}
