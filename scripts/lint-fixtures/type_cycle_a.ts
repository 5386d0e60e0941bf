// Lint fixture (never built or run): one half of a type-only import circle, which ESLint's import-x/no-cycle
// skips and scripts/import-circles.js must find (acceptance/import_circles.test.ts).
import type { B } from './type_cycle_b';

export interface A {
  b?: B;
}
