/**
 * The layers of the harness, lowest first (ARCHITECTURE.md's table is checked against this list by
 * test/architecture/layers.test.ts; .dependency-cruiser.cjs turns it into import rules). A path is a folder
 * (ending in '/') or a file. A module belongs to the first layer, lowest first, whose path it starts with.
 */
const LAYERS = [
  {
    name: 'data',
    paths: [
      'lib/catalogue/',
      'lib/profile/schema.ts',
      'lib/profile/schema-embedded.ts',
      'lib/profile/schema-run.ts',
      'lib/root.ts',
    ],
  },
  {
    name: 'primitives',
    paths: [
      'lib/mask/',
      'lib/pki/',
      'lib/jose/',
      'lib/tls/',
      'lib/data/',
      'lib/openapi/',
      'lib/pool.ts',
      'lib/errors.ts',
      'lib/waits.ts',
    ],
  },
  { name: 'transport', paths: ['lib/http/', 'lib/profile/', 'lib/oauth/', 'lib/negative/'] },
  { name: 'mock bank', paths: ['lib/mock/'] },
  { name: 'engine', paths: ['lib/engine/'] },
  { name: 'partner', paths: ['lib/partner/'] },
  { name: 'suites', paths: ['suites/'] },
  { name: 'workbench', paths: ['lib/workbench/'] },
  { name: 'reports, CLI', paths: ['lib/report/', 'lib/cli/', 'scripts/'] },
  { name: 'load scripts', paths: ['load/'] },
  { name: 'examples', paths: ['examples/'] },
];
module.exports = { LAYERS };
