/**
 * The layering of ARCHITECTURE.md as rules (dependency-cruiser). A layer may import from the layers below it,
 * never from above; no import cycles, type-only imports included. `npm run lint` runs it; test/architecture checks
 * that ARCHITECTURE.md's table names the same layers and folders, and that an upward import is caught.
 */
const { LAYERS } = require('./architecture/layers.cjs');

/** a regular expression matching the paths of a layer */
const pathsOf = (layer) => `^(${layer.paths.map((p) => p.replace(/[.]/g, '\\.')).join('|')})`;

const upward = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1);
  if (above.length === 0) return [];
  return [
    {
      name: `layer-${layer.name}`,
      comment: `${layer.name} (${layer.paths.join(', ')}) may not import from a layer above it: ${above.map((l) => l.name).join(', ')}`,
      severity: 'error',
      from: { path: pathsOf(layer), pathNot: LAYERS.slice(0, i).map(pathsOf) },
      // a path that a lower layer names first is that layer's (lib/profile/schema*.ts are data, not transport)
      to: { path: above.map(pathsOf), pathNot: LAYERS.slice(0, i + 1).map(pathsOf) },
    },
  ];
});

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'no import cycles, type-only imports included: a shared type goes to a leaf types.ts module',
      severity: 'error',
      from: { path: '^(lib|suites|scripts)/' },
      to: { circular: true },
    },
    {
      name: 'mock-own-opener',
      comment:
        "the mock opens requests with its own opener (lib/mock/jose/open-sealed.ts): it never imports lib/jose's open path, so a bug there is not mirrored on both sides",
      severity: 'error',
      from: { path: '^lib/mock/' },
      to: { path: '^lib/jose/(index|open|open-parse|policy|json|forms)[.]ts$' },
    },
    {
      name: 'lib-not-suites',
      comment:
        "nothing under lib/ imports the suites: a builder both the checks and the workbench use lives in lib/ (lib/negative); a suite's judge the workbench reads with is handed in as a value by its command (scripts/send/judges.ts)",
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^suites/' },
    },
    {
      name: 'not-to-test',
      comment: 'nothing outside test/ imports from test/ (test doubles live there only)',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
