// graph: identity, stopGradient, print (stateful) and ensureShape, with their GraphDef forms.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import { withOnnx } from '../onnx_spec';
import { showValue } from '../../values/dtype';
import type { Info } from '../../backend/backend';
import { AVal, Params, Primitive } from '../primitive';
import { Dims, TensorShape, dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { argError } from '../check';
import { api, arg } from '../api_spec';
import { ReadScope, SpecNode, WriteScope, attr, typeAttrOf } from '../graphdef_spec';
import type { TfDecl } from '../graphdef_spec';
import { bind } from '../bind';
import { printValues } from '../../values/print_values';
import { g0 } from '../rule_helpers';


const unaryApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x')]);

function passThrough<const N extends string, const P extends readonly string[]>(name: N, paths: P, vjp: Primitive['vjp'], tf: TfDecl) {
  return defineOp({
    name,
    infer: (ins: AVal[]) => [{ dtype: ins[0].dtype, shape: ins[0].shape }],
    impl: (k, [x]) => [k.run('Identity', { x }) as Info],
    vjp,
    saves: 'none',
    api: unaryApi(paths),
    tf,
  });
}

export const identity = withOnnx(passThrough('identity', ['identity'], (c) => [g0(c)], { op: 'Identity', readAlso: ['Snapshot'] }), lower.identity);
/** stop_gradient: identity forward; deliberately not differentiable (the tape never records it). */
export const stopGradient = withOnnx(passThrough('stop_gradient', ['stopGradient'], null, { op: 'StopGradient' }), lower.identity);

export interface PrintParams {
  readonly template: readonly (string | null)[];
}

/** print: stateful, prints its inputs when run (at call time inside graphs). */
export const print = defineOp({
  name: 'print',
  effect: 'stateful',
  infer: () => [],
  impl(_k, ins: Info[], p: PrintParams) {
    printValues(p.template, ins);
    return [];
  },
  printParams: (p: PrintParams) => `[${p.template.map((s) => (s === null ? '_' : JSON.stringify(s))).join(', ')}]`,
  tf: { ops: ['Print'], write: writePrint, read: readPrint },
});

export interface EnsureShapeParams {
  readonly dims: Dims;
}

/** Whether concrete `shape` matches `dims` (unknown rank or dims match anything). */
function fitsDims(shape: readonly number[], dims: Dims): boolean {
  if (dims === null) return true;
  if (shape.length !== dims.length) return false;
  for (let i = 0; i < dims.length; i++) if (dims[i] !== null && dims[i] !== shape[i]) return false;
  return true;
}

/**
 * The run-time check of ensure_shape: one compare per dim, no allocation (setShape adds this check to
 * graphs, and the executor runs it without the Identity when it can hand the value over).
 */
export function ensureShapeCheck(x: Info, p: EnsureShapeParams): void {
  if (!fitsDims(x.shape, p.dims)) {
    throw argError('ensureShape', `shape of tensor [${x.shape.join(',')}] is not compatible with expected shape ${dimsToString(p.dims)}`, `[${x.shape.join(',')}]`, `${dimsToString(p.dims)}`, 'Fix the input, or the shape asserted with setShape/ensureShape.', 'ensure_shape');
  }
}

/** ensure_shape: refines the static shape, checks the runtime shape. */
export const ensureShape = defineOp({
  name: 'ensure_shape',
  infer(ins: AVal[], p: EnsureShapeParams) {
    const s = new TensorShape(ins[0].shape);
    if (!s.isCompatibleWith(p.dims)) {
      throw argError('ensureShape', 'shape is not compatible', dimsToString(ins[0].shape), dimsToString(p.dims), 'Fix the expected shape or the input.');
    }
    return [{ dtype: ins[0].dtype, shape: s.mergeWith(new TensorShape(p.dims)).dims }];
  },
  impl(k, [x], p: EnsureShapeParams) {
    ensureShapeCheck(x, p);
    return [k.run('Identity', { x }) as Info];
  },
  vjp: (c) => [g0(c)],
  saves: 'none',
  api: api(['ensureShape'], [arg.tensor('x'), arg.custom('shape', dimsArg, undefined, 'dims')]),
  tf: { ops: ['EnsureShape'], write: writeEnsureShape, read: readEnsureShape },
});

const bindP = (p: Primitive<PrintParams> | Primitive<EnsureShapeParams>, ins: Tensor[], params: object): Tensor[] =>
  bind(p as unknown as Primitive, ins, params as Params);

function writePrint(s: WriteScope, n: SpecNode, ins: string[]): string[] {
  const p = n.params as PrintParams;
  const x = ins.length ? ins[0] : s.constant('message', { dtype: 'string', shape: [], data: [''] });
  const message = p.template.map((t) => (t === null ? '{}' : t)).join(' ');
  s.add('Print', 'Print', [x, ...ins], {
    T: ins.length ? typeAttrOf(s, n.inputs[0]) : attr.type('string'),
    U: attr.types(n.inputs.map((i) => s.dtype(i))),
    message: attr.str(message),
    first_n: attr.int(-1),
    summarize: attr.int(3),
    _eagerflow_template: attr.str(JSON.stringify(p.template)),
  });
  return [];
}

/** JSON data from an attr (never code); undefined when malformed. */
function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function readPrint(r: ReadScope): Tensor[] {
  r.arity(1, Number.MAX_SAFE_INTEGER);
  const data = r.inputs(1);
  let template: (string | null)[];
  if (r.node.has('_eagerflow_template')) {
    const parsed = parseJson(r.node.str('_eagerflow_template'));
    const ok = Array.isArray(parsed) && parsed.every((x) => x === null || typeof x === 'string') && parsed.filter((x) => x === null).length === data.length;
    if (!ok) throw r.error('the print template does not match the data inputs', r.node.str('_eagerflow_template').slice(0, 60), `${data.length} placeholders (null)`, 'Re-save the function');
    template = parsed as (string | null)[];
  } else {
    template = [r.node.str('message', ''), ...data.map(() => null)];
  }
  bindP(print, data, { template });
  return [r.input(0)];
}

function writeEnsureShape(s: WriteScope, n: SpecNode, [x]: string[]): string[] {
  const dims = (n.params as EnsureShapeParams).dims;
  const known = dims !== null && dims.every((d) => d !== null);
  // The converter reads EnsureShape's shape from a second input; TensorFlow from the attr.
  const ins = known ? [x, s.ints('shape', dims as number[])] : [x];
  return [s.add('EnsureShape', 'EnsureShape', ins, { T: typeAttrOf(s, n.inputs[0]), shape: attr.shape(dims) })];
}

function readEnsureShape(r: ReadScope): Tensor[] {
  r.arity(1, 2);
  const fromAttr = r.node.shape('shape');
  const dims = fromAttr !== undefined ? fromAttr : r.numbers(1, 'the shape').map((d) => (d < 0 ? null : d));
  return bindP(ensureShape, [r.input(0)], { dims });
}

/** ensureShape's expected shape: dims (null = any) or null (any rank). */
function dimsArg(op: string, v: unknown): Dims {
  if (v === null) return null;
  if (!Array.isArray(v) || v.some((d) => d !== null && !(Number.isInteger(d) && d >= 0))) {
    throw argError(op, 'shape must be an array of dims', showValue(v), 'non-negative integers or null (unknown)', 'Pass e.g. [null, 3].');
  }
  return v as (number | null)[];
}
