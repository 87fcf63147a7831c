/**
 * certify's options and defaults (lib/cli/args.ts checks a command line against them), and a first look at a command
 * line before it is checked: the profiles it would run, so that scripts/certify.ts can start the embedded mocks'
 * worker thread at once, before args.ts loads the requirement catalogue (and with it zod) to check the rest.
 */
import { parseArgs } from 'node:util';
import { PROXY_OPTIONS } from './proxy-args.ts';

export const DEFAULT_PROFILES = ['profiles/mock-sandbox.json', 'profiles/mock-uat.json'] as const;
export const DEFAULT_OUT = 'reports';

export const CERTIFY_OPTIONS = {
  profile: { type: 'string', multiple: true },
  suite: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  grep: { type: 'string' },
  out: { type: 'string' },
  long: { type: 'boolean' },
  destructive: { type: 'boolean' },
  'fail-on': { type: 'string' },
  list: { type: 'boolean' },
  'fresh-keys': { type: 'boolean' },
  deadline: { type: 'string' },
  seed: { type: 'string' },
  ...PROXY_OPTIONS,
  har: { type: 'string' },
  'har-keep-tokens': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * The profiles a command line would run and whether it asks for new test keys, at a first look: none for --help,
 * --list or a command line that does not parse (args.ts then says why). Only a guess that saves time: the command
 * line is judged by parseCertifyArgs alone.
 */
export function firstLook(argv: string[]): { profiles: string[]; freshKeys: boolean } {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: CERTIFY_OPTIONS }));
  } catch {
    return { profiles: [], freshKeys: false };
  }
  if (values.help || values.list) return { profiles: [], freshKeys: false };
  // as parseCertifyArgs reads them
  const profiles = (values.profile ?? []).filter((x) => x.length > 0);
  return { profiles: profiles.length ? profiles : [...DEFAULT_PROFILES], freshKeys: values['fresh-keys'] === true };
}
