import { afterEach } from 'vitest';

if (typeof window !== 'undefined') {
  // jsdom lacks matchMedia, which Garden's colour-scheme code reads at import time.
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  // The connector calls go to each test's fake client (the page's session is not in jsdom).
  const { useZafTransport } = await import('./zafTransport');
  await useZafTransport();
  const { cleanup, configure } = await import('@testing-library/react');
  // waitFor and findBy*: jsdom and its timers lag by seconds on a loaded machine; they return as
  // soon as what they wait for is there
  configure({ asyncUtilTimeout: 120_000 });
  afterEach(() => cleanup());
}
