// The sidebar shows attacker-controlled text in the same defanged form as the
// connector's notes (one rule, @incident-desk/threat-text): values fully, free text where it names
// a link, a host, an address or an IPv4 address (also 。 ． ｡ and IDN hosts).
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderSidebar, clientServing } from './render';
import { detailedIncident, linkedView } from './fixtures';

const MESSAGE =
  'Moved to hxxps[:]//evil。example．com, пример.рф/login and 203.0.113.7; mail phisher@evil.example. Done. Next step 1.2';
const SHOWN =
  'Moved to hxxps[:]//evil[。]example[．]com, пример[.]рф/login and 203[.]0[.]113[.]7; mail phisher[@]evil[.]example. Done. Next step 1.2';

describe('defanging in the sidebar', () => {
  it('shows analyst messages and the free-text details as the notes show them', async () => {
    const incident = detailedIncident({
      subject: 'phisher@evil.example',
      history: [{ timestamp: '2026-11-03T09:30:00.000Z', message: MESSAGE }],
      registrar: { name: 'Registrar at reg.evil.example' },
      hostingProvider: 'Host http://bp-host.example',
      blocklists: [
        {
          authority: 'list.evil.example',
          type: 'blocklist',
          status: 'listed',
          listedAt: null,
          link: null,
        },
      ],
      insights: {
        snapshotTimestamp: '2026-11-02T07:00:00.000Z',
        page: { title: 'Sign in to brand.example' },
      },
    });
    renderSidebar(clientServing(linkedView({ incident })));
    await screen.findByTestId('state-linked');
    expect(screen.getByTestId('history-entry').textContent).toContain(SHOWN);
    expect(screen.getByTestId('subject').textContent).toContain('phisher[@]evil[.]example');
    expect(screen.getByTestId('infrastructure').textContent).toContain(
      'Registrar at reg[.]evil[.]example',
    );
    expect(screen.getByTestId('infrastructure').textContent).toContain(
      'Host hxxp[:]//bp-host[.]example',
    );
    expect(screen.getByTestId('blocklist').textContent).toContain('list[.]evil[.]example');
    expect(screen.getByTestId('insights-page').textContent).toContain('Sign in to brand[.]example');
  });
});
