// random: categorical (Multinomial, stateful and stateless) and shuffle (RandomShuffle), sampling from host values.
import { Info, Kernels, readInfoSync } from '../../backend/backend';
import { defineOp } from '../define_op';
import type { AVal, Params, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { describe } from '../../values/dtype';
import { argError, checkDTypes } from '../check';
import { ReadScope, SpecNode, WriteScope, attr } from '../graphdef_spec';
import { bind } from '../bind';
import { PhiloxStream } from './philox';
import { readSeedPair, statelessStream, streamFor } from './seeds';

/** Params of categorical: the samples per row and the seeds (a pair for the stateless form). */
export interface CategoricalParams {
  readonly numSamples: number;
  readonly seed: number | readonly [number, number];
  readonly seed2?: number;
}

function inferCategorical(op: string, ins: AVal[], p: CategoricalParams): AVal[] {
  checkDTypes(op, ins[0], ['float32'], 'logits');
  const shape = ins[0].shape;
  if (shape !== null && shape.length !== 2) throw argError(op, 'logits must be 2-D [batch, classes]', `shape [${shape.join(',')}]`, 'a 2-D tensor', 'Reshape the logits to [batch, classes].');
  if (!Number.isInteger(p.numSamples) || p.numSamples < 0) throw argError(op, 'numSamples must be a non-negative integer', describe(p.numSamples), 'an integer >= 0', 'Pass a whole number of samples.');
  if (shape !== null && shape[1] === 0 && shape[0] !== 0 && p.numSamples > 0) throw argError(op, 'logits have no classes to sample', `shape [${shape.join(',')}]`, 'at least one class', 'Pass logits with at least one column.');
  return [{ dtype: 'int32', shape: [shape === null ? null : shape[0], p.numSamples] }];
}

/** Samples class indices row by row from unnormalized log-probabilities (inverse CDF on float64 weights). */
function sampleRows(logits: Float32Array, batch: number, classes: number, n: number, s: PhiloxStream): Int32Array {
  const out = new Int32Array(batch * n);
  const cdf = new Float64Array(classes);
  for (let b = 0; b < batch; b++) {
    let max = -Infinity;
    for (let c = 0; c < classes; c++) max = Math.max(max, logits[b * classes + c]);
    let total = 0;
    for (let c = 0; c < classes; c++) {
      const v = logits[b * classes + c];
      total += max === -Infinity || !Number.isFinite(v) && v < 0 ? 0 : Math.exp(v - max);
      cdf[c] = total;
    }
    for (let j = 0; j < n; j++) {
      const u = s.uniform() * total;
      let c = 0;
      while (c < classes - 1 && !(u < cdf[c])) c++;
      out[b * n + j] = c;
    }
  }
  return out;
}

function categoricalImpl(k: Kernels, x: Info, n: number, s: PhiloxStream): Info {
  const [batch, classes] = x.shape;
  return k.upload(sampleRows(readInfoSync(x) as Float32Array, batch, classes, n, s), [batch, n], 'int32');
}

const bindP = (p: Primitive<CategoricalParams> | Primitive<ShuffleParams>, ins: Tensor[], params: object): Tensor[] => bind(p as unknown as Primitive, ins, params as Params);

/** tf.random.categorical's kernel (TF's Multinomial): stateful. */
export const multinomial = defineOp({
  name: 'multinomial',
  effect: 'stateful',
  infer: (ins: AVal[], p: CategoricalParams) => inferCategorical('random.categorical', ins, p),
  impl: (k, [x], p: CategoricalParams) => [categoricalImpl(k, x, p.numSamples, streamFor(p.seed as number, p.seed2 ?? 0))],
  tf: {
    ops: ['Multinomial'],
    write(s: WriteScope, n: SpecNode, ins: string[]) {
      const p = n.params as CategoricalParams;
      const attrs = { seed: attr.int(p.seed as number), seed2: attr.int(p.seed2 ?? 0), T: attr.type('float32'), output_dtype: attr.type('int32') };
      return [s.add('Multinomial', 'Multinomial', [ins[0], s.ints('num_samples', [p.numSamples], [])], attrs)];
    },
    read(r: ReadScope): Tensor[] {
      r.arity(2);
      return bindP(multinomial, [r.input(0)], { numSamples: r.number(1, 'num_samples'), seed: r.node.int('seed', 0), seed2: r.node.int('seed2', 0) });
    },
  },
});

/** tf.random.stateless_categorical's kernel (TF's StatelessMultinomial): pure in its seed pair. */
export const statelessMultinomial = defineOp({
  name: 'stateless_multinomial',
  infer: (ins: AVal[], p: CategoricalParams) => inferCategorical('random.statelessCategorical', ins, p),
  impl: (k, [x], p: CategoricalParams) => [categoricalImpl(k, x, p.numSamples, statelessStream(p.seed as [number, number]))],
  tf: {
    ops: ['StatelessMultinomial'],
    write(s: WriteScope, n: SpecNode, ins: string[]) {
      const p = n.params as CategoricalParams;
      const args = [ins[0], s.ints('num_samples', [p.numSamples], []), s.ints('seed', p.seed as [number, number])];
      return [s.add('StatelessMultinomial', 'StatelessMultinomial', args, { T: attr.type('float32'), Tseed: attr.type('int32'), output_dtype: attr.type('int32') })];
    },
    read(r: ReadScope): Tensor[] {
      r.arity(3);
      return bindP(statelessMultinomial, [r.input(0)], { numSamples: r.number(1, 'num_samples'), seed: readSeedPair(r, 2) });
    },
  },
});

export interface ShuffleParams {
  readonly seed: number;
  readonly seed2: number;
}

/** A uniform random permutation of 0..n-1 (Fisher-Yates). */
function permutation(n: number, s: PhiloxStream): Int32Array {
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = s.int(0, i + 1);
    const t = p[i]; p[i] = p[j]; p[j] = t;
  }
  return p;
}

/** tf.random.shuffle: permutes the first dimension; stateful, not differentiable (as in TensorFlow). */
export const randomShuffle = defineOp({
  name: 'random_shuffle',
  effect: 'stateful',
  infer(ins: AVal[]) {
    if (ins[0].shape !== null && ins[0].shape.length === 0) throw argError('random.shuffle', 'value must have at least one dimension', 'a scalar', 'a tensor of rank >= 1', 'Pass a vector or higher-rank tensor.');
    return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
  },
  impl(k, [x], p: ShuffleParams) {
    const idx = k.upload(permutation(x.shape[0], streamFor(p.seed, p.seed2)), [x.shape[0]], 'int32');
    const out = k.run('GatherV2', { x, indices: idx }, { axis: 0, batchDims: 0 }) as Info;
    k.free(idx);
    return [out];
  },
  tf: {
    ops: ['RandomShuffle'],
    write: (s: WriteScope, n: SpecNode, ins: string[]) => {
      const p = n.params as ShuffleParams;
      return [s.add('RandomShuffle', 'RandomShuffle', [ins[0]], { seed: attr.int(p.seed), seed2: attr.int(p.seed2), T: attr.type(s.dtype(n.inputs[0])) })];
    },
    read(r: ReadScope): Tensor[] {
      r.arity(1);
      return bindP(randomShuffle, [r.input(0)], { seed: r.node.int('seed', 0), seed2: r.node.int('seed2', 0) });
    },
  },
});
