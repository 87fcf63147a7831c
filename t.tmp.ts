import { loadOpenApi } from './lib/openapi/load.ts';
for (const f of process.argv.slice(2)) {
const t0 = performance.now();
const m = await loadOpenApi(f, process.cwd(), { requireOperations: false });
console.log(f, Math.round(performance.now() - t0), 'ms', m.documentFindings);
}
