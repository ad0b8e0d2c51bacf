import { render } from '@testing-library/react';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { App } from '../src/app/App';
import { ClientProvider } from '../src/app/contexts/ClientProvider';
import { TranslationProvider } from '../src/app/contexts/TranslationProvider';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';
import {
  createFakeZafClient,
  type FakeOptions,
  type FakeReply,
  type FakeZafClient,
} from './fakeZafClient';

export function renderSidebar(client: FakeZafClient, refreshIntervalMs = 0) {
  return render(
    <ThemeProvider>
      <ClientProvider init={() => client} registrationTimeoutMs={500}>
        <TranslationProvider>
          <App refreshIntervalMs={refreshIntervalMs} />
        </TranslationProvider>
      </ClientProvider>
    </ThemeProvider>,
  );
}

/** A fake client whose connector serves the given view on GET and `actions` on POST paths. */
export function clientServing(
  view: TSidebarTicketView | (() => TSidebarTicketView),
  actions: Record<string, FakeReply> = {},
  options: FakeOptions = {},
) {
  return createFakeZafClient({
    ...options,
    handler: (request) => {
      if (request.type === 'GET')
        return { status: 200, body: typeof view === 'function' ? view() : view };
      const path = new URL(request.url).pathname;
      const match = Object.entries(actions).find(([suffix]) => path.endsWith(suffix));
      return match ? match[1] : { status: 200, body: { message: 'ok' } };
    },
  });
}

/** Opens the card's "More actions" menu and chooses one item by its visible name. */
export async function chooseMoreAction(name: string) {
  const { fireEvent, screen, within } = await import('@testing-library/react');
  const actions = await screen.findByTestId('actions');
  fireEvent.click(within(actions).getByRole('button', { name: 'More actions' }));
  fireEvent.click(await screen.findByRole('menuitem', { name }));
}

/** Opens a collapsed detail section by its heading, so its content is in the accessibility tree. */
export async function expandSection(name: string) {
  const { fireEvent, screen } = await import('@testing-library/react');
  const trigger = await screen.findByRole('button', { name });
  if (trigger.getAttribute('aria-expanded') !== 'true') fireEvent.click(trigger);
  return trigger;
}
