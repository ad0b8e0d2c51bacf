// Dependencies point one way: no module of the product imports, through any chain, a module that
// imports it back (`npm run lint` runs this over every workspace's src). In the connector each
// top-level folder of src is one concept entered by its index.ts, and the folders form layers
// that only point down (docs/architecture.md, "The connector's layers"). Only accounts/, setup/ and
// the ticket writer import Zendesk's client; the other folders ask them.

const CONNECTOR = 'apps/connector/src';

// Top to bottom. A folder may import only folders after it in this list (a later layer, or later
// in its own layer); so no two folders import each other.
const CONNECTOR_LAYERS = [
  ['entry', ['main.ts', 'app.ts', 'connector']],
  ['start-up', ['demo', 'config']],
  ['surfaces', ['admin', 'sidebar-api', 'disconnect', 'http']],
  ['background work', ['retention', 'sync', 'worker']],
  ['accounts', ['accounts', 'setup']],
  ['queue', ['jobs', 'ingest']],
  ['leaves', ['notes', 'metrics', 'secrets', 'log']],
];

const pathOf = (part) =>
  part.endsWith('.ts') ? `^${CONNECTOR}/${part.replace('.', '\\.')}$` : `^${CONNECTOR}/${part}/`;
const inOrder = CONNECTOR_LAYERS.flatMap(([layer, parts]) =>
  parts.map((part) => ({ layer, part })),
);

const layersPointDown = inOrder.slice(1).map(({ layer, part }, i) => ({
  name: 'connector-layers-point-down',
  comment: `${part} (${layer}) imports a folder above it: move the shared piece down, or pass a function in`,
  severity: 'error',
  from: { path: pathOf(part) },
  to: { path: inOrder.slice(0, i + 1).map((above) => pathOf(above.part)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import circle: move what both sides need into a module of its own',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'connector-folder-doors',
      comment:
        'another folder of the connector is entered by its index.ts only: export what you need there',
      severity: 'error',
      from: { path: `^${CONNECTOR}/([^/]+?)(?:/|\\.ts$)` },
      to: {
        path: `^${CONNECTOR}/[^/]+/`,
        pathNot: [`^${CONNECTOR}/$1/`, `^${CONNECTOR}/[^/]+/index\\.ts$`],
      },
    },
    ...layersPointDown,
    {
      name: 'zendesk-behind-doors',
      comment:
        'only accounts/, setup/ and the ticket writer talk to Zendesk: ask them (their index.ts) instead of importing the client',
      severity: 'error',
      from: {
        path: `^${CONNECTOR}/`,
        pathNot: [
          `^${CONNECTOR}/(accounts|setup)/`,
          `^${CONNECTOR}/sync/(ticket-writes/|ticket-writer\\.ts$)`,
        ],
      },
      // the workspace package by name (unresolved or under node_modules) or by its sources
      to: { path: ['(^|/)@incident-desk/zendesk-api(/|$)', '^packages/zendesk-api/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports count: a circle of types is still two modules that know each other
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    exclude: { path: '(node_modules|/dist/|/generated/)' },
  },
};
