#!/usr/bin/env node
// `certify` bin entry (package.json "bin"): runs scripts/certify.ts through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../certify.ts');
