// Import rows for TF's fused and converter-only ops (_FusedConv2D, FusedDepthwiseConv2dNative, _FusedMatMul, Prelu, AddN) on the records.
import { PRIMITIVES, ReadScope, Tensor, TfImport, bind, readConvAttrs, PrimitiveName } from '@eagerflow/core';
import { fusedConv2d, prelu } from '@eagerflow/function';
import { fromBase64 } from './format';
import { ParsedNode } from './validate';

const P = PRIMITIVES;
const one = (prim: PrimitiveName, ins: Tensor[], params: object = {}): Tensor => bind(P[prim], ins, params)[0];


/** A list-of-strings attr (`list.s`, base64), e.g. fused_ops. */
function strings(r: ReadScope, key: string): string[] {
  const a = r.node instanceof ParsedNode ? r.node.attrs.get(key) : undefined;
  const list: unknown = a?.list?.s ?? [];
  if (!Array.isArray(list)) throw r.error(`attr '${key}' is not a list of strings`, JSON.stringify(list), 'a list of base64 strings', 'Fix the node attrs');
  return list.map((s) => {
    const v = typeof s === 'string' ? fromBase64(s) : null;
    if (v === null) throw r.error(`attr '${key}' is not a list of strings`, JSON.stringify(s), 'base64 strings', 'Fix the node attrs');
    return v;
  });
}

/** The extra tensor args of a fused node (inputs 2..), consumed in fused_ops order. */
class Args {
  private k = 0;
  constructor(
    private readonly r: ReadScope,
    private readonly first: number,
  ) {}

  take(n: number, what: string): Tensor[] {
    const have = this.r.count - this.first - this.k;
    if (have < n) throw this.r.error(`fused op ${what} needs ${n} more argument${n === 1 ? '' : 's'}`, `${have} left of num_args=${this.r.count - this.first}`, `${n}`, 'Fix num_args and the node inputs');
    const out = this.r.inputs(this.first + this.k, this.first + this.k + n);
    this.k += n;
    return out;
  }

  /** Every arg must be used (num_args must match the inputs too). */
  done(): void {
    const numArgs = this.r.node.int('num_args', this.r.count - this.first);
    if (numArgs !== this.r.count - this.first || this.k !== numArgs) {
      throw this.r.error('num_args does not match the fused ops', `num_args=${numArgs}, ${this.r.count - this.first} extra inputs, ${this.k} used`, 'as many extra inputs as the fused ops take', 'Fix the node');
    }
  }
}

/** The ops TF fuses after a conv or matmul: a bias or batch norm, residual adds, one activation. */
function applyFused(r: ReadScope, y: Tensor, args: Args, fmt: string): Tensor {
  const ops = strings(r, 'fused_ops');
  for (const op of ops) {
    switch (op) {
      case 'BiasAdd':
        y = one('bias_add', [y, args.take(1, op)[0]], { dataFormat: fmt });
        break;
      case 'FusedBatchNorm':
        y = one('fused_batch_norm', [y, ...args.take(4, op)], { epsilon: r.node.float('epsilon', 1e-4), dataFormat: fmt });
        break;
      case 'Add':
      case 'AddV2':
        y = one('add', [y, args.take(1, op)[0]]);
        break;
      case 'Relu':
      case 'Relu6':
      case 'Elu':
      case 'Sigmoid':
      case 'Tanh':
        y = one(op.toLowerCase() as 'relu' | 'relu6' | 'elu' | 'sigmoid' | 'tanh', [y]);
        break;
      case 'LeakyRelu':
        y = one('leaky_relu', [y], { alpha: r.node.float('leakyrelu_alpha', 0.2) });
        break;
      case 'Prelu':
        y = prelu(y, args.take(1, op)[0]);
        break;
      default:
        throw r.error(`fused op '${op}' is not supported`, `fused_ops [${ops.join(', ')}]`, 'BiasAdd or FusedBatchNorm, Add, then Relu, Relu6, Elu, LeakyRelu, Sigmoid, Tanh or Prelu', 'Convert the model without that fusion');
    }
  }
  args.done();
  return y;
}

/**
 * _FusedConv2D / FusedDepthwiseConv2dNative: one fused record on tfjs's fused kernel (conv + BiasAdd + one
 * activation tfjs fuses, NHWC, SAME/VALID) as tfjs-converter runs it; otherwise the conv record with TF's
 * conv attrs, then the fused ops one record each.
 */
function fusedConv(prim: 'conv2d' | 'depthwise_conv2d'): TfImport['read'] {
  return (r) => {
    r.arity(2, 8);
    const conv = readConvAttrs(r, 2, 'NHWC');
    const fused = fusedConv2d(r, prim, conv, strings(r, 'fused_ops'));
    if (fused !== null) return [fused];
    const y = one(prim, [r.input(0), r.input(1)], conv);
    return [applyFused(r, y, new Args(r, 2), conv.dataFormat)];
  };
}

/** _FusedMatMul: MatMul with transpose_a/transpose_b, then the fused ops (the bias is along the last axis). */
function fusedMatMul(r: ReadScope): Tensor[] {
  r.arity(2, 8);
  const y = one('matmul', [r.input(0), r.input(1)], { transposeA: r.node.bool('transpose_a', false), transposeB: r.node.bool('transpose_b', false) });
  return [applyFused(r, y, new Args(r, 2), 'NHWC')];
}

/** AddN as TF sums it: left to right in the inputs' dtype (tfjs's kernel accumulates the same way). */
function addN(r: ReadScope): Tensor[] {
  r.arity(1, 4096);
  const n = r.node.int('N', r.count);
  if (n !== r.count) throw r.error('N does not match the inputs', `N=${n} and ${r.count} inputs`, `N=${r.count}`, 'Fix the node');
  let y = r.input(0);
  // One input: TF returns it unchanged (as a new tensor; identity keeps the output distinct).
  if (r.count === 1) return [one('identity', [y])];
  for (let k = 1; k < r.count; k++) y = one('add', [y, r.input(k)]);
  return [y];
}

/**
 * TF ops no record writes, read onto records with TF's attribute semantics: the grappler fusions
 * (conv or matmul + BiasAdd/FusedBatchNorm + activation), tfjs-converter's Prelu, and AddN.
 * @example
 * ef.internal.IMPORT_ROWS.some((row) => row.ops.includes('_FusedConv2D')); // true
 */
export const FUSED_IMPORT_ROWS: readonly TfImport[] = [
  { ops: ['_FusedConv2D'], read: fusedConv('conv2d') },
  { ops: ['FusedDepthwiseConv2dNative'], read: fusedConv('depthwise_conv2d') },
  { ops: ['_FusedMatMul'], read: fusedMatMul },
  { ops: ['Prelu'], read: (r) => (r.arity(2), [prelu(r.input(0), r.input(1))]) },
  { ops: ['AddN'], read: addN },
];
