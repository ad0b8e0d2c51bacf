import { createRoot } from 'react-dom/client';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { App } from './App';
import { ClientProvider } from './contexts/ClientProvider';
import { TranslationProvider } from './contexts/TranslationProvider';
import { GlobalStyle } from './components/GlobalStyle';

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <ThemeProvider>
      <GlobalStyle />
      <ClientProvider>
        <TranslationProvider>
          <App />
        </TranslationProvider>
      </ClientProvider>
    </ThemeProvider>,
  );
}
