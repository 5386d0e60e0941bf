// Lint fixture (never built or run): the other half of the type-only circle (see type_cycle_a.ts).
import type { A } from './type_cycle_a';

export interface B {
  a?: A;
}
