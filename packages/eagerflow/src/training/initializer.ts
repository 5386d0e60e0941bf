// What every initializer is (initializers.ts's factories and orthogonal.ts's): the function type and its seed option.
import type { DType, Tensor } from '@eagerflow/core';

/** An initializer: `init(shape, dtype?)` returns a new tensor of that shape. */
export type Initializer = (shape: number[], dtype?: DType) => Tensor;

/** `{ seed }`: the same seed draws the same values (Philox streams, as the random ops). */
export interface SeedOptions {
  /** Same seed -> the same values at every call (Keras 3); no seed -> fresh values each call. */
  seed?: number | null;
}
