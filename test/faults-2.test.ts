import { describeFaultMatrix } from './support/fault-matrix.ts';

describeFaultMatrix(2, 2);
