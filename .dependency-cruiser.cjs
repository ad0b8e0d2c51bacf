// Dependencies point one way: no module of the product imports, through any chain, a module that
// imports it back (`npm run lint` runs this over every workspace's src).
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports count: a circle of types is still two modules that know each other
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    exclude: { path: '(node_modules|/dist/|/generated/)' },
  },
};
