// Entry of a profile's harness thread run from the TypeScript sources (lib/engine/run/harness-thread.ts). Worker
// threads do not inherit tsx's module hooks, so the thread registers them itself before it loads the TypeScript side.
import { register } from 'tsx/esm/api';

register();
await import('../harness-thread.ts');
