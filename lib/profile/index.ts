export { loadProfile, parseProfile, type ParseOptions } from './load.ts';
export { ProfileError, formatPath, type ProfileErrorCode } from './errors.ts';
export { secretsOf, assumptionsOf, type ProfileSecret } from './secrets.ts';
export * from './schema.ts';
