// Entry of the mock banks' worker thread (lib/mock/server/thread.ts). Worker threads do not inherit tsx's module
// hooks, so the thread registers them itself before it loads the TypeScript side.
import { register } from 'tsx/esm/api';

register();
await import('./thread-main.ts');
