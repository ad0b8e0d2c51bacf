// Ports of the e2e stack: away from the defaults (8787-8789) so a developer's `npm start` and the
// suite can run side by side. Override with E2E_CONNECTOR_PORT and friends.
const portOf = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

export const stackPorts = {
  connector: portOf('E2E_CONNECTOR_PORT', 18787),
  incident: portOf('E2E_INCIDENT_SANDBOX_PORT', 18788),
  zendesk: portOf('E2E_ZENDESK_SANDBOX_PORT', 18789),
};

export const stackUrls = {
  connector: `http://localhost:${stackPorts.connector}`,
  incident: `http://localhost:${stackPorts.incident}`,
  zendesk: `http://localhost:${stackPorts.zendesk}`,
};

export const SUBDOMAIN = 'demo';
