import { describeFaultMatrix } from './support/fault-matrix.ts';

describeFaultMatrix(1, 2);
