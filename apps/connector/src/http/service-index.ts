// The connector's own address, `/`: for a person, a small page of what runs here and where to go
// (install, the admin page, and in the demo the sandboxes' workspace and console); for a tool,
// the same as JSON. Nothing on it is secret: it names public routes only.
import type { RequestHandler } from 'express';
import { escapeHtml, htmlPage } from '../accounts';

/** The sandboxes the demo runs beside the connector (config.demo). */
export interface DemoSandboxUrls {
  zendeskSandboxUrl: string;
  incidentSandboxUrl: string;
}

interface IndexLink {
  label: string;
  href: string;
  hint: string;
}

function linksOf(publicUrl: string, demo: DemoSandboxUrls | null): IndexLink[] {
  const links: IndexLink[] = [
    { label: 'Install', href: `${publicUrl}/install`, hint: 'connect a Zendesk account (OAuth)' },
    {
      label: 'Admin page',
      href: `${publicUrl}/admin/`,
      hint: 'connection, setup, failed syncs, analytics',
    },
    {
      label: 'Health',
      href: `${publicUrl}/healthz`,
      hint: 'this instance and every account’s ticket writes',
    },
  ];
  if (!demo) return links;
  return [
    {
      label: 'Agent workspace (Zendesk sandbox)',
      href: `${demo.zendeskSandboxUrl}/agent/tickets/1`,
      hint: 'a ticket with the incident-desk sidebar',
    },
    {
      label: 'Analyst console (incident sandbox)',
      href: `${demo.incidentSandboxUrl}/_sandbox/console/`,
      hint: 'move incidents, see webhook deliveries',
    },
    ...links,
  ];
}

export function serviceIndex(publicUrl: string, demo: DemoSandboxUrls | null): RequestHandler {
  const links = linksOf(publicUrl, demo);
  const page = htmlPage(
    'incident-desk connector',
    `<p>The connector between Zendesk and the incident service${demo ? ', running the demo' : ''}.</p>` +
      `<ul>${links
        .map(
          (link) =>
            `<li><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>: ${escapeHtml(link.hint)}</li>`,
        )
        .join('')}</ul>`,
  );
  return (req, res) => {
    if (req.accepts(['json', 'html']) === 'html') {
      res.type('html').send(page);
      return;
    }
    res.json({
      service: 'incident-desk connector',
      health: '/healthz',
      install: '/install',
      admin: '/admin/',
    });
  };
}
