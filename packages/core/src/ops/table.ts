// The table of every core primitive, collected from the category modules: tests iterate it, so a primitive without cases fails.
import type { Primitive } from './primitive';
import * as ARI from './math/binary';
import * as UNA from './math/unary';
import * as NNB from './nn/activations';
import * as LOG from './math/compare';
import * as RED from './math/reduce';
import * as MAT from './linalg/matmul';
import * as LIN from './linalg/square_matrix';
import * as QR from './linalg/qr';
import * as RSH from './array/reshape';
import * as PAD from './array/pad';
import * as MIR from './array/mirror_pad';
import * as CST from './math/cast';
import * as TRN from './nn/space_depth';
import * as SJ from './array/slice_concat_gather';
import * as SEG from './math/segment_sum';
import * as CRE from './array/creation';
import * as GR from './array/identity';
import * as IMG from './image/resize';
import * as NMS from './image/nms';
import * as FFT from './signal/fft';
import * as CONV from './nn/conv';
import * as POOL from './nn/pool';
import * as NORM from './nn/normalization';
import { internalError, opError } from '../errors/error_toolkit';
import { NotFoundError } from '../errors/errors';
import * as V from './state/variable_ops';
import * as BM from './math/unary_functions';
import * as AR from './math/binary_functions';
import * as RD from './math/reduce_scan';
import { provideComplexRecords, provideShapeRecords } from './rule_ops';
import * as TR from './array/manipulation';
import * as SJ2 from './array/strided_slice';
import * as SG from './math/segment_search';
import * as BC from './math/bincount';
import * as RND from './random/draws';
import * as RNS from './random/sampling';
import * as RNG from './random/gamma';
import * as RGG from './random/gamma_grad';

/**
 * The category modules of records. Every record a module exports is in the table (keyed by its IR
 * name), so a new record in one of these files needs no other line; a new category file adds itself here.
 */
const MODULES = [ARI, AR, UNA, BM, NNB, LOG, RED, RD, MAT, LIN, QR, RSH, PAD, MIR, CST, TRN, TR, SJ, SJ2, SEG, SG, BC, CRE, GR, IMG, NMS, FFT, CONV, POOL, NORM, V, RND, RNS, RNG, RGG] as const;

/** Every value the record modules export (namespaces read the records' API declarations from it). */
export type RecordExports =
  | ValuesOf<typeof ARI> | ValuesOf<typeof AR> | ValuesOf<typeof UNA> | ValuesOf<typeof BM> | ValuesOf<typeof NNB> | ValuesOf<typeof LOG>
  | ValuesOf<typeof RED> | ValuesOf<typeof RD> | ValuesOf<typeof MAT> | ValuesOf<typeof LIN> | ValuesOf<typeof QR> | ValuesOf<typeof RSH> | ValuesOf<typeof PAD> | ValuesOf<typeof MIR>
  | ValuesOf<typeof CST> | ValuesOf<typeof TRN> | ValuesOf<typeof TR> | ValuesOf<typeof SJ> | ValuesOf<typeof SJ2> | ValuesOf<typeof SEG>
  | ValuesOf<typeof SG> | ValuesOf<typeof BC> | ValuesOf<typeof CRE> | ValuesOf<typeof GR> | ValuesOf<typeof IMG> | ValuesOf<typeof NMS> | ValuesOf<typeof FFT> | ValuesOf<typeof CONV>
  | ValuesOf<typeof POOL> | ValuesOf<typeof NORM> | ValuesOf<typeof V> | ValuesOf<typeof RND> | ValuesOf<typeof RNS> | ValuesOf<typeof RNG> | ValuesOf<typeof RGG>;
type ValuesOf<T> = T[keyof T];

const isRecord = (x: unknown): x is Primitive =>
  typeof x === 'object' && x !== null && typeof (x as Primitive).name === 'string' && typeof (x as Primitive).infer === 'function' && typeof (x as Primitive).impl === 'function';

/** The records among the modules' exports (each keeps its literal name, params and API types). */
type TableRecord = Extract<RecordExports, { readonly name: string; readonly effect: 'pure' | 'stateful'; readonly saves: Primitive['saves'] }>;

/** An IR name of core's table: a literal union, so a misspelt name is a compile error. */
export type PrimitiveName = TableRecord['name'];

/** Core's record named `N`, with its own types. */
export type RecordNamed<N extends PrimitiveName> = Extract<TableRecord, { readonly name: N }>;

/** Every core record by IR name. */
export type PrimitiveTable = { readonly [N in PrimitiveName]: RecordNamed<N> };

function collect(): PrimitiveTable {
  const out: Record<string, Primitive> = {};
  for (const mod of MODULES) {
    for (const x of Object.values(mod)) {
      if (!isRecord(x) || out[x.name] === x) continue;
      if (out[x.name] !== undefined) throw internalError('primitive table', `two records are named '${x.name}' (IR names must be unique: rename one)`);
      out[x.name] = x;
    }
  }
  return out as unknown as PrimitiveTable;
}

/**
 * Every core primitive by IR name: tests iterate it, so a primitive without cases fails.
 * @example
 * ef.internal.PRIMITIVES.sinh.name; // 'sinh'
 */
export const PRIMITIVES: PrimitiveTable = collect();
provideShapeRecords({ floordiv: AR.floordiv as Primitive, floormod: AR.floormod as Primitive, prod: RD.prod as Primitive, cumsum: RD.cumsum as Primitive });
provideComplexRecords({ real: FFT.real as Primitive, imag: FFT.imag as Primitive, complex: FFT.complex as Primitive });

/**
 * Core's record of a name known in the source (a literal: a misspelt name does not compile).
 * @example
 * ef.internal.getRecord('add').name; // 'add'
 */
export function getRecord<N extends PrimitiveName>(name: N): RecordNamed<N> {
  return (PRIMITIVES as unknown as Readonly<Record<PrimitiveName, RecordNamed<N>>>)[name];
}

const extra: Primitive[] = [];

/**
 * A record by a name that comes from data (a loaded graph, a saved node): core's table, then the
 * registered records. Unknown names raise a NotFoundError naming `site` and the name.
 * @example
 * ef.internal.recordByName('add', 'my reader').name; // 'add'
 */
export function recordByName(name: string, site: string): Primitive {
  const p = findRecord(name);
  if (p === undefined) {
    throw opError(NotFoundError, site, `no primitive named '${name}'`, `'${name}'`, 'an IR name of ef.internal.allPrimitives()', 'Check the name, or register the record (ef.internal.registerPrimitive) before reading data that names it.');
  }
  return p;
}

/** The record of a name from data, or undefined (core's table, then the registered records). */
export function findRecord(name: string): Primitive | undefined {
  return Object.prototype.hasOwnProperty.call(PRIMITIVES, name) ? (PRIMITIVES as unknown as Record<string, Primitive>)[name] : extra.find((e) => e.name === name);
}

/**
 * Registers a record defined outside core (control flow, host callbacks): the GraphDef reader and
 * the op tables see it. Names must be unique.
 */
export function registerPrimitive(p: Primitive): void {
  if (findRecord(p.name) !== undefined) {
    if (extra.includes(p)) return;
    throw internalError('registerPrimitive', `a second primitive named '${p.name}' (names must be unique)`);
  }
  extra.push(p);
}

/** Every record: core's table, then the registered ones. */
export function allPrimitives(): Primitive[] {
  return [...(Object.values(PRIMITIVES) as Primitive[]), ...extra];
}

/**
 * Whether `p` is core's record named `name` (a literal of the table: a misspelt name does not compile).
 * @example
 * ef.internal.isPrimitive(ef.internal.PRIMITIVES.add, 'add'); // true
 */
export function isPrimitive(p: Primitive, name: PrimitiveName): boolean {
  return p.name === name;
}
