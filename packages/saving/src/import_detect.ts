// Detection-model ops: Pack, Split, and TF1's legacy
// ResizeBilinear modes (align_corners / neither flag) on tfjs's kernels, with their gradient.
import { AVal, Info, PRIMITIVES, nhwcSizes, Primitive, ReadScope, Tensor, TfImport, argError, attr, bind, registerPrimitive, stack } from '@eagerflow/core';

const P = PRIMITIVES;

/** Split(split_dim, value) into num_split equal pieces (the record's SplitV with static sizes). */
function readSplit(r: ReadScope): Tensor[] {
  r.arity(2);
  const x = r.input(1);
  const n = r.node.int('num_split');
  const rank = x.rank;
  let axis = r.number(0, 'split_dim');
  if (rank !== null && axis < 0) axis += rank;
  const d = x.dims?.[axis] ?? null;
  if (d === null || !(n >= 1) || d % n !== 0) throw r.error('num_split must divide a static axis size', `axis ${axis} of shape ${x.shape.toString()}, num_split=${n}`, 'a known size divisible by num_split', 'Give the input a static shape');
  return bind(P.split, [x], { sizes: Array.from({ length: n }, () => d / n), axis, numSplit: n });
}

export interface LegacyResizeParams {
  readonly size: readonly [number, number];
  readonly alignCorners: boolean;
}

/** TF1's resize_bilinear modes (src = dst · scale; with alignCorners the corner pixels align): tfjs's kernel. */
const resizeBilinearV1: Primitive<LegacyResizeParams> = {
  name: 'resize_bilinear_v1',
  effect: 'pure',
  infer(ins: AVal[], p: LegacyResizeParams) {
    const s = ins[0]?.shape;
    if (ins.length !== 1 || ins[0].dtype !== 'float32' || (s !== null && s.length !== 4)) {
      throw argError('resizeBilinearV1', 'images must be float32 NHWC (rank 4)', ins.map((a) => `${a.dtype} ${JSON.stringify(a.shape)}`).join(', '), 'float32 [b, h, w, c]', 'Pass NHWC images.');
    }
    return [{ dtype: 'float32', shape: s === null ? [null, p.size[0], p.size[1], null] : [s[0], p.size[0], p.size[1], s[3]] }];
  },
  impl: (k, [images], p: LegacyResizeParams) => [k.run('ResizeBilinear', { images }, { size: [...p.size], alignCorners: p.alignCorners, halfPixelCenters: false }) as Info],
  vjp: (c, [x], _o, p: LegacyResizeParams) => [c[0] === null ? null : bind(resizeBilinearV1Grad as Primitive, [c[0], x], { alignCorners: p.alignCorners })[0]],
  saves: 'inputs',
  // ONNX Resize names both TF1 modes: align_corners, and asymmetric (src = dst · in/out).
  onnx: {
    lower: (s, n, [x]) => {
      const p = n.params as LegacyResizeParams;
      return s.add('Resize', [x, '', '', nhwcSizes(s, n.inputs[0], x, p.size)], { mode: { s: 'linear' }, coordinate_transformation_mode: { s: p.alignCorners ? 'align_corners' : 'asymmetric' } });
    },
    accepts: (s, n) => s.aval(n.inputs[0]).dtype === 'float32' && s.aval(n.inputs[0]).shape?.length === 4,
  },
  tf: {
    ops: [],
    write: (s, n, [x]) => {
      const p = n.params as LegacyResizeParams;
      return [s.add('ResizeBilinear', 'ResizeBilinear', [x, s.ints('size', p.size)], { T: attr.type('float32'), align_corners: attr.bool(p.alignCorners), half_pixel_centers: attr.bool(false) })];
    },
  },
};

/** The adjoint of resizeBilinearV1 (tfjs's ResizeBilinearGrad computes exactly the TF1 modes). */
const resizeBilinearV1Grad: Primitive<{ readonly alignCorners: boolean }> = {
  name: 'resize_bilinear_v1_grad',
  effect: 'pure',
  infer: (ins: AVal[]) => [{ dtype: 'float32', shape: ins[1].shape }],
  impl(k, [dy, images], p) {
    // tfjs's cpu kernel labels its output [b, w, h, c] but lays it out as the image: reshape to the image's shape.
    const g = k.run('ResizeBilinearGrad', { images, dy }, { alignCorners: p.alignCorners }) as Info;
    const out = k.run('Reshape', { x: g }, { shape: images.shape }) as Info;
    k.free(g);
    return [out];
  },
  vjp: null,
  saves: 'none',
  tf: {
    ops: [],
    write: (s, n, [dy, x]) => [s.add('ResizeBilinearGrad', 'ResizeBilinearGrad', [dy, x], { T: attr.type('float32'), align_corners: attr.bool((n.params as { alignCorners: boolean }).alignCorners), half_pixel_centers: attr.bool(false) })],
  },
};
registerPrimitive(resizeBilinearV1 as Primitive);
registerPrimitive(resizeBilinearV1Grad as Primitive);

/** ResizeBilinear / ResizeBilinearGrad with align_corners=true or half_pixel_centers=false. */
function legacyResize(r: ReadScope): Tensor[] {
  r.arity(2);
  const align = r.node.bool('align_corners', false);
  if (align && r.node.bool('half_pixel_centers', false)) throw r.error('align_corners and half_pixel_centers cannot both be true', 'both true', 'at most one', 'Fix the attrs (TensorFlow rejects this too)');
  if (r.node.op === 'ResizeBilinearGrad') return bind(resizeBilinearV1Grad as Primitive, [r.input(0), r.input(1)], { alignCorners: align });
  const [h, w] = r.numbers(1, 'the size');
  return bind(resizeBilinearV1 as Primitive, [r.input(0)], { size: [h, w], alignCorners: align });
}

/** Whether a ResizeBilinear node uses a TF1 mode (the record reads only TF2's half-pixel mode). */
export const isLegacyResize = (r: ReadScope): boolean => (r.node.op === 'ResizeBilinear' || r.node.op === 'ResizeBilinearGrad') && (r.node.bool('align_corners', false) || !r.node.bool('half_pixel_centers', false));

export const readLegacyResize = legacyResize;

/**
 * Pack (tf.stack) and Split (equal pieces); the NMS family's readers are on its records (import_nms.ts).
 * @example
 * ef.internal.IMPORT_ROWS.some((row) => row.ops.includes('Pack')); // true
 */
export const DETECT_IMPORT_ROWS: readonly TfImport[] = [
  {
    ops: ['Pack'],
    read(r) {
      r.arity(1, 4096);
      if (r.node.int('N', r.count) !== r.count) throw r.error('N does not match the inputs', `N=${r.node.int('N', r.count)} and ${r.count} inputs`, `N=${r.count}`, 'Fix the node');
      return [stack(r.inputs(), r.node.int('axis', 0))];
    },
  },
  { ops: ['Split'], read: readSplit },
];
