// matrices: batched matmul (MatMul / BatchMatMulV2) with its gradient rule.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import type { Info } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import { ruleOps as o } from '../rule_ops';
import { bind } from '../bind';
import { argError, broadcastOrThrow, checkArity, checkDTypes, checkSameDType } from '../check';
import { broadcastInfo, broadcastShape, sameShape } from '../kernel_util';
import { hostMatMul } from './host_matmul';

const count = (s: readonly number[]): number => {
  let n = 1;
  for (let i = 0; i < s.length; i++) n *= s[i];
  return n;
};

export interface MatMulParams {
  readonly transposeA: boolean;
  readonly transposeB: boolean;
}

/** TF's adjointA/adjointB: the conjugate transpose, a transpose for real dtypes; TF refuses both on one operand. */
function adjointAsTranspose(op: string, p: Record<string, unknown>): void {
  for (const s of ['A', 'B']) {
    if (p[`adjoint${s}`] === true) {
      if (p[`transpose${s}`] === true) throw argError(op, `transpose${s} and adjoint${s} cannot both be true`, `transpose${s}: true, adjoint${s}: true`, 'at most one of them', `Pass only adjoint${s} (it transposes real matrices).`);
      p[`transpose${s}`] = true;
    }
    delete p[`adjoint${s}`];
  }
}

export const matmul = defineOp({
  name: 'matmul',
  onnx: lower.matmul,
  infer(ins: AVal[], p: MatMulParams) {
    checkArity('matmul', ins, 2);
    checkDTypes('matmul', ins[0], ['float32', 'int32'], 'a');
    checkSameDType('matmul', ins[0], ins[1]);
    const [a, b] = [ins[0].shape, ins[1].shape];
    if (a === null || b === null) return [{ dtype: ins[0].dtype, shape: null }];
    if (a.length < 2 || b.length < 2) {
      throw argError('matmul', 'inputs must be at least rank 2', `shapes [${a}] and [${b}]`, 'rank >= 2 for both', 'Use ef.expandDims or ef.reshape to make matrices.');
    }
    const [m, ka] = p.transposeA ? [a[a.length - 1], a[a.length - 2]] : [a[a.length - 2], a[a.length - 1]];
    const [kb, n] = p.transposeB ? [b[b.length - 1], b[b.length - 2]] : [b[b.length - 2], b[b.length - 1]];
    if (ka !== null && kb !== null && ka !== kb) {
      throw argError('matmul', 'inner dimensions do not match', `a: [${a.join(',')}], b: [${b.join(',')}] (inner ${ka} vs ${kb})`, 'equal inner dimensions', 'Transpose one input (transposeA/transposeB) or fix the shapes.');
    }
    const batch = broadcastOrThrow('matmul', a.slice(0, -2), b.slice(0, -2)) as (number | null)[];
    return [{ dtype: ins[0].dtype, shape: [...batch, m, n] }];
  },
  impl(k, ins, p: MatMulParams) {
    // Every call of a traced matmul runs this: plain indexing, no destructuring or closures (array destructuring
    // walks the iterator protocol, which costs the most while V8 still interprets it: a process's first calls).
    const a = ins[0];
    const b = ins[1];
    // tfjs's BatchMatMul pairs batches by flat index modulo the batch size: right only when the
    // batch shapes are equal or one batch has a single matrix. Otherwise broadcast both first.
    const sa = a.shape.slice(0, -2);
    const sb = b.shape.slice(0, -2);
    const batch = broadcastShape(sa, sb);
    const direct = count(sa) === 1 || count(sb) === 1 || sameShape(sa, sb);
    if (a.shape.includes(0) || b.shape.includes(0)) {
      // An empty operand: zeros (an empty inner dim sums nothing) or an empty result, without the kernel (tfjs-webgl's
      // BatchMatMul fails on empty inputs).
      const m = a.shape[a.shape.length - (p.transposeA ? 1 : 2)];
      const nn = b.shape[b.shape.length - (p.transposeB ? 2 : 1)];
      return [k.run('Fill', {}, { shape: [...batch, m, nn], value: 0, dtype: a.dtype }) as Info];
    }
    // Small float32 products on the cpu backend: the same sums in one host loop, without the kernel's fixed cost.
    if (direct) {
      const host = hostMatMul(k, a, b, p.transposeA, p.transposeB, batch);
      if (host !== null) return [host];
    }
    const fa = direct ? a : broadcastInfo(k, a, [...batch, ...a.shape.slice(-2)]);
    const fb = direct ? b : broadcastInfo(k, b, [...batch, ...b.shape.slice(-2)]);
    const out = k.run('BatchMatMul', { a: fa, b: fb }, { transposeA: p.transposeA, transposeB: p.transposeB }) as Info;
    if (fa !== a) k.free(fa);
    if (fb !== b) k.free(fb);
    return [out];
  },
  vjp(c, [a, b], _o, p: MatMulParams, need) {
    const g = c[0] as Tensor;
    // Only inputs some source depends on get a cotangent (a data matrix's is never computed).
    const mm = (i: number, x: Tensor, y: Tensor, tx: boolean, ty: boolean): Tensor | null => (need[i] ? o.matmul(x, y, tx, ty) : null);
    if (!p.transposeA && !p.transposeB) return [mm(0, g, b, false, true), mm(1, a, g, true, false)];
    if (!p.transposeA && p.transposeB) return [mm(0, g, b, false, false), mm(1, g, a, true, false)];
    if (p.transposeA && !p.transposeB) return [mm(0, b, g, false, true), mm(1, a, g, false, false)];
    return [mm(0, b, g, true, true), mm(1, g, a, true, true)];
  },
  saves: 'inputs',
  api: api(['linalg.matmul', 'matmul'], [arg.tensor('a'), arg.tensor('b'), arg.bool('transposeA', false), arg.bool('transposeB', false)], [arg.bool('adjointA', false), arg.bool('adjointB', false)], { poolScalars: true, prepare: adjointAsTranspose }),
  tf: {
    ops: ['MatMul', 'BatchMatMulV2', 'BatchMatMul'],
    // Rank-2 operands save as MatMul (what every runtime has); batched ones as BatchMatMulV2.
    write(s, n, [a, b]) {
      const p = n.params as MatMulParams;
      const T = attr.type(s.dtype(n.inputs[0]));
      const rank2 = [0, 1].every((i) => s.aval(n.inputs[i]).shape?.length === 2);
      if (rank2) return [s.add('MatMul', 'MatMul', [a, b], { T, transpose_a: attr.bool(p.transposeA), transpose_b: attr.bool(p.transposeB) })];
      return [s.add('BatchMatMulV2', 'BatchMatMulV2', [a, b], { T, adj_x: attr.bool(p.transposeA), adj_y: attr.bool(p.transposeB) })];
    },
    read(r): Tensor[] {
      r.arity(2);
      const [ta, tb] = r.node.op === 'MatMul' ? ['transpose_a', 'transpose_b'] : ['adj_x', 'adj_y'];
      return bind(matmul as Primitive, [r.input(0), r.input(1)], { transposeA: r.node.bool(ta, false), transposeB: r.node.bool(tb, false) });
    },
  },
});
