import { registerSuite } from '../../lib/engine/vitest/vitest.ts';
import { suite } from './checks.ts';

registerSuite(suite);
