import { registerSuite } from '../../lib/engine/vitest.ts';
import { suite } from './checks.ts';

registerSuite(suite);
