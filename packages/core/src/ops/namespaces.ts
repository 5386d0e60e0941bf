// The public op surface generated from the table: TF module namespaces and top-level names, typed by a mapped type.
import { PRIMITIVES } from './table';
import { internalError, typeError } from '../errors/error_toolkit';
import type { RecordExports } from './table';
import type { Primitive } from './primitive';
import type { ApiSpec, EntriesOf } from './api_spec';
import { wrapperOf } from './ops';
import { COMPOSITES } from './composites';
import { Generator } from './random/draws';
import { setSeed } from './random/seeds';

type Records = RecordExports;
type ApiOf<R> = R extends { readonly api: infer S } ? S : never;
type CompositeEntries = { [K in keyof typeof COMPOSITES]: EntriesOf<(typeof COMPOSITES)[K]['api'], (typeof COMPOSITES)[K]['fn']> }[keyof typeof COMPOSITES];
/** Every [path, function type] pair of the table and the composites. */
export type AllEntries = EntriesOf<ApiOf<Records>> | CompositeEntries;

/** The functions under one TF module path (`'math'` -> `ef.math`). */
export type Namespace<NS extends string> = { [E in AllEntries as E[0] extends `${NS}.${infer N}` ? N : never]: E[1] };
/** The top-level names (paths without a module). */
export type TopLevel = { [E in AllEntries as E[0] extends `${string}.${string}` ? never : E[0]]: E[1] };

/** The TF modules namespaces are generated for. */
export const MODULES = ['math', 'nn', 'image', 'linalg', 'random', 'signal'] as const;

/** [path, function] of every declared op, records first (one wrapper per record). */
export function opEntries(): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const rec of Object.values(PRIMITIVES) as Primitive[]) {
    if (rec.api === undefined) continue;
    const fn = wrapperOf(rec as Primitive & { api: ApiSpec });
    for (const p of rec.api.paths) out.push([p, fn]);
  }
  for (const c of Object.values(COMPOSITES)) {
    const fn = checkedArity(c.api.paths[0], c.fn as (...args: unknown[]) => unknown);
    for (const p of c.api.paths) out.push([p, fn]);
  }
  return out;
}

/**
 * How many parameters a function declares (its source's top-level parameter list, so defaults count too);
 * Infinity for a rest parameter or a source it cannot read.
 */
export function declaredArity(fn: (...args: never[]) => unknown): number {
  const src = Function.prototype.toString.call(fn).replace(/^async\s+/, '');
  if (/^[\w$]+\s*=>/.test(src)) return 1; // x => ...
  const open = src.indexOf('(');
  if (open < 0 || !(src.startsWith('(') || /^function\b/.test(src))) return Infinity;
  let depth = 0, count = 0, any = false;
  for (let i = open + 1; i < src.length; i++) {
    const ch = src[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return any ? count + 1 : 0;
      depth--;
    } else if (ch === "'" || ch === '"') {
      // A string default: skip to its closing quote.
      for (i++; i < src.length && src[i] !== ch; i++) if (src[i] === '\\') i++;
    } else if (ch === '`') {
      return Infinity; // a template literal default: do not guess
    } else if (depth === 0 && ch === ',') count++;
    else if (depth === 0 && ch === '.' && src.startsWith('...', i)) return Infinity;
    if (ch.trim() !== '') any = true;
  }
  return Infinity;
}

/**
 * A composite's public function, refusing extra arguments: TF's positional keyword arguments go in one options object
 * (API.md), so `ef.random.normal([2], 0, 0.5)` must not silently draw N(0, 1).
 */
function checkedArity<F extends (...args: unknown[]) => unknown>(op: string, fn: F): F {
  const known = checked.get(fn);
  if (known !== undefined) return known as F;
  const max = declaredArity(fn);
  const out = max === Infinity ? fn : (function (this: unknown, ...args: unknown[]) {
    if (args.length > max) throw typeError(op, 'too many arguments', `${args.length}`, `at most ${max}`, 'Pass the options as one object, e.g. { seed: 1 }.');
    return fn.apply(this, args);
  } as F);
  checked.set(fn, out);
  return out;
}
/** One checked function per composite, however often opEntries runs. */
const checked = new Map<unknown, unknown>();

function build(): { top: Record<string, unknown>; modules: Record<string, Record<string, unknown>> } {
  const top: Record<string, unknown> = {};
  const modules: Record<string, Record<string, unknown>> = Object.fromEntries(MODULES.map((m) => [m, {}]));
  for (const [path, fn] of opEntries()) {
    const dot = path.indexOf('.');
    const [target, name] = dot < 0 ? [top, path] : [modules[path.slice(0, dot)], path.slice(dot + 1)];
    if (target === undefined) throw internalError('op table', `unknown module in path '${path}' (expected one of ${MODULES.join(', ')})`);
    if (Object.prototype.hasOwnProperty.call(target, name) && target[name] !== fn) throw internalError('op table', `two ops claim the path '${path}'`);
    target[name] = fn;
  }
  return { top, modules };
}

const built = build();

/** Every top-level op, by name (the umbrella re-exports these one by one). */
export const TOP = built.top as TopLevel;
export const math = built.modules.math as Namespace<'math'>;
export const nn = built.modules.nn as Namespace<'nn'>;
export const image = built.modules.image as Namespace<'image'>;
export const linalg = built.modules.linalg as Namespace<'linalg'>;
/** tf.random: the ops, plus setSeed (TF's global seed) and Generator. */
export const random = Object.assign(built.modules.random, { setSeed, Generator }) as Namespace<'random'> & { setSeed: typeof setSeed; Generator: typeof Generator };
export const signal = built.modules.signal as Namespace<'signal'>;
