import { registerMatrix } from './matrix.ts';

registerMatrix(0, 2);
