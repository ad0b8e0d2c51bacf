// The confirmation dialog is a chunk of its own; when that chunk cannot load, the view says so
// with a retry instead of going blank.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { linkedView } from './fixtures';
import { useZafTransport } from './zafTransport';

// The test files of a worker share its module cache, where an earlier file may have loaded the view
// and its dialog chunk (React.lazy keeps what it loaded): both are loaded afresh for this file, so
// the chunk it loads is the mocked one.
vi.resetModules();
await useZafTransport();
const { renderSidebar, clientServing } = await import('./render');

let failLoads = 0;
vi.mock('../src/app/components/ConfirmDialog', async (importOriginal) => {
  if (failLoads > 0) {
    failLoads -= 1;
    throw new Error('chunk failed to load');
  }
  return importOriginal();
});

describe('the confirmation dialog chunk', () => {
  it('failing to load shows a message with retry and cancel, and the view stays', async () => {
    failLoads = 10;
    // React (development build) reports the caught error to the console and as a window error
    // event; both are expected here.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const quiet = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', quiet);
    try {
      renderSidebar(clientServing(linkedView()));
      const actions = await screen.findByTestId('actions');
      fireEvent.click(within(actions).getByRole('button', { name: /^Approve takedown/ }));
      const failed = await screen.findByTestId('dialog-load-failed');
      expect(failed.textContent).toContain('The confirmation could not load');
      expect(within(failed).getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(screen.getByTestId('status-card')).toBeTruthy();
      fireEvent.click(within(failed).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByTestId('dialog-load-failed')).toBeNull();
      expect(screen.queryByRole('dialog')).toBeNull();
    } finally {
      window.removeEventListener('error', quiet);
      consoleError.mockRestore();
    }
  });
});
