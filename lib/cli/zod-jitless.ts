/**
 * Imported by the certify command (scripts/certify.ts) before any module that builds a schema: zod validates a run's few
 * documents (the catalogue, each profile, the results) once or twice each, and its default compiles a parser for each
 * object schema on its first use (`new Function`), which costs more than that one use saves (docs/performance.md,
 * "Start-up": part of a one-check run's critical path). Without it zod validates the same way, by its generic path.
 * zod reads the setting when a schema is built, so this module must be evaluated before any module that builds one.
 */
import { config } from 'zod';

config({ jitless: true });
