import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@zendeskgarden/css-bedrock';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { App } from './App';

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <ThemeProvider>
        <App />
      </ThemeProvider>
    </StrictMode>,
  );
}
