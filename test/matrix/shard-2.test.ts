import { registerMatrix } from './matrix.ts';

registerMatrix(1, 2);
