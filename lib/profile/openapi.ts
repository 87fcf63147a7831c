/**
 * A profile's OpenAPI document (`target.openapi`, `embedded.openapi`; docs/openapi.md): loaded when the profile loads,
 * before any traffic (a document the harness cannot use is a configuration error naming the file and where in it),
 * and, where the profile does not set `target.paths` itself, the source of the transfers operations' paths.
 */
import { relative } from 'node:path';
import { OpenApiError, loadOpenApi } from '../openapi/load.ts';
import type { ProfilePaths } from '../openapi/identify.ts';
import type { OpenApiModel } from '../openapi/types.ts';
import { ProfileError } from './errors.ts';
import type { AnyProfile, FullProfile } from './schema.ts';

const FILE_PREFIX = 'file:';

/** the profile fields that name an OpenAPI document (kept as a path by the loader) */
export function isOpenApiField(path: readonly PropertyKey[]): boolean {
  return path.length === 2 && (path[0] === 'target' || path[0] === 'embedded') && path[1] === 'openapi';
}

/** the absolute path of the profile's document (the loader made it absolute), undefined when it names none */
export function openApiFile(profile: AnyProfile): string | undefined {
  const ref = 'embedded' in profile ? profile.embedded.openapi : profile.target.openapi;
  return ref?.startsWith(FILE_PREFIX) ? ref.slice(FILE_PREFIX.length) : ref;
}

/** whether the harness calls the profile's transfers API (a missing operation in the document is then an error) */
function callsApi(profile: AnyProfile): boolean {
  return 'embedded' in profile ? profile.embedded.oauth?.noApi !== true : profile.target.api !== 'none';
}

/** the transfers paths a profile may set itself (`target.pathsWritten`) */
const WRITABLE = ['transfersBasepath', 'validate', 'transfer'] as const;

/**
 * the paths a full profile sets itself (`target.pathsWritten`, the loader's list of those written, before defaults):
 * they identify the operations in the document (lib/openapi/identify.ts), at the profile's load and at prepare alike,
 * and in any copy of the profile; undefined when neither operation's path is among them
 */
function writtenPaths(profile: FullProfile): ProfilePaths | undefined {
  const set = new Set(profile.target.pathsWritten ?? []);
  const p = profile.target.paths;
  const hint: ProfilePaths = {
    ...(set.has('transfersBasepath') ? { basePath: p.transfersBasepath } : {}),
    ...(set.has('validate') ? { validate: p.validate } : {}),
    ...(set.has('transfer') ? { transfer: p.transfer } : {}),
  };
  return hint.validate !== undefined || hint.transfer !== undefined ? hint : undefined;
}

/** the profile's document, loaded once (lib/openapi/load.ts caches it); undefined when the profile names none */
export async function openApiOf(profile: AnyProfile, source: string): Promise<OpenApiModel | undefined> {
  const file = openApiFile(profile);
  if (!file) return undefined;
  try {
    // named in messages and reports as a path from the working folder (a machine's folders are not part of a run)
    const rel = relative(process.cwd(), file);
    const shown = rel && !rel.startsWith('..') ? rel : file;
    const paths = 'embedded' in profile ? undefined : writtenPaths(profile);
    return await loadOpenApi(shown, process.cwd(), {
      requireOperations: callsApi(profile),
      ...(paths ? { paths } : {}),
    });
  } catch (e) {
    if (!(e instanceof OpenApiError)) throw e;
    const field = 'embedded' in profile ? 'embedded.openapi' : 'target.openapi';
    throw new ProfileError('PROFILE_OPENAPI', source, [`${field}: ${e.message}`]);
  }
}

const rawPaths = (raw: unknown): Record<string, unknown> => {
  const target = (raw as { target?: { paths?: unknown } } | undefined)?.target;
  const paths = target?.paths;
  return typeof paths === 'object' && paths !== null ? (paths as Record<string, unknown>) : {};
};

/** the document's path of an operation below the base path, its one path parameter named `{transfer_id}` */
function below(model: OpenApiModel, path: string): string {
  const rest = model.basePath && path.startsWith(model.basePath) ? path.slice(model.basePath.length) : path;
  return rest.replace(/\{[^}]+\}/, '{transfer_id}');
}

/**
 * the document loaded; its paths fill what the profile leaves unset (full profiles only): those not in
 * `target.pathsWritten`, to which the loader adds the paths the profile writes
 */
export async function withOpenApi(profile: AnyProfile, raw: unknown, source: string): Promise<void> {
  if (!('embedded' in profile)) {
    const inRaw = rawPaths(raw);
    const own = profile.target.pathsWritten ?? [];
    const listed = WRITABLE.filter((k) => k in inRaw || own.includes(k));
    if (listed.length > 0) profile.target.pathsWritten = listed;
  }
  const model = await openApiOf(profile, source);
  if (!model || 'embedded' in profile) return;
  const set = new Set(profile.target.pathsWritten ?? []);
  const paths: FullProfile['target']['paths'] = profile.target.paths;
  if (!set.has('transfersBasepath') && model.basePath) paths.transfersBasepath = model.basePath;
  if (!set.has('validate') && model.byKey.validate) paths.validate = below(model, model.byKey.validate.path);
  const transfer = model.byKey.create ?? model.byKey.get;
  if (!set.has('transfer') && transfer) paths.transfer = below(model, transfer.path);
}
