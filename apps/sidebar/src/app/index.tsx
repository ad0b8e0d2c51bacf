// The entry script: small on purpose. It starts the ZAF handshake and the first requests, then
// loads the UI (React, Garden, the sections), which iframe.html already preloads in parallel.
import { startLoading } from './boot';
import { createTranslator, english } from './lib/i18n';

const container = document.getElementById('root');
if (container) {
  const client = startLoading();
  import('./main').then(
    ({ mount }) => mount(container, client),
    () => {
      // Without the UI chunk there is no React to show an error panel: plain text, then.
      document.documentElement.lang = 'en';
      container.textContent = createTranslator(english)('app.loadFailed');
    },
  );
}
