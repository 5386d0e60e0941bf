// Fuzzing the loader with fast-check: random mutations of valid saved files must load or fail with a clean Error (no internal TypeError, no hang, no leak).
import * as ef from 'eagerflow';
import fc from 'fast-check';

type J = unknown;
const spec = (shape: (number | null)[] | null, dtype: ef.DType = 'float32'): ef.TensorSpec => new ef.TensorSpec(shape, dtype);
const RUNS = Number(process.env.EF_FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.EF_FUZZ_SEED ?? 20240601);

// Mutations may call it with other inputs: it must not fail itself (its own errors are the user's, not the loader's).
const inc = ef.registerHostFunction('fuzz.inc', (x?: ef.NDArray) => (x instanceof ef.NDArray ? x.map((v) => Number(v) + 1) : 0));
const hostFunctions = { 'fuzz.inc': inc };
const counter = new ef.Variable([0, 0], { name: 'counter' });

/** Valid files to mutate: plain ops, shape helpers, control flow, variables, callbacks, prints. */
function bases(): { doc: J; bytes: number[]; inputs: ef.Tensor[] }[] {
  const fns: [ef.TensorSpec[], (...xs: ef.Tensor[]) => unknown][] = [
    [[spec([null, 3])], (x) => ef.relu(ef.add(ef.matmul(x, ef.ones([3, 2])), ef.reduceSum(x)))],
    [[spec([null, 3]), spec([1, 3])], (x, l) => [ef.internal.reduceLike(x, l), ef.internal.reshapeLike(ef.transpose(x), ef.zeros([3, 1])), ef.concat([x, x], 0)]],
    [[spec([2])], (x) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.exp(x), () => ef.negative(x))],
    [[spec([2]), spec([], 'int32')], (x, n) => ef.whileLoop((i: ef.Tensor) => ef.less(i, n), (i: ef.Tensor, v: ef.Tensor) => [ef.add(i, 1), ef.multiply(v, 2)], [ef.constant(0, 'int32'), x], { maximumIterations: 5 })],
    [[spec([2])], (x) => (counter.assignAdd(x), ef.print('c', counter.value()), ef.numpyFunction(inc, [x], 'float32'))],
    [[spec([2, 2])], (x) => ({ g: ef.gather(x, ef.constant([1, 0], 'int32'), 1), p: ef.pad(x, [[1, 0], [0, 1]]), s: ef.slice(ef.squeeze(ef.expandDims(x, 0)), [0, 0], [1, -1]), r: ef.range(0, 3, 1, 'int32'), f: ef.fill([2], 'a') })],
  ];
  const fold = ef.internal.passConfig.maxFoldElements;
  ef.internal.passConfig.maxFoldElements = 0;
  try {
    return fns.map(([specs, fn]) => {
      const a = ef.saveFunction(ef.trace(fn, { inputSignature: specs }));
      const { weightData, ...rest } = a;
      const inputs = specs.map((sp) => ef.zeros(sp.shape.dims?.map((d) => d ?? 1) ?? [], sp.dtype));
      return { doc: JSON.parse(JSON.stringify(rest)), bytes: Array.from(new Uint8Array(weightData)), inputs };
    });
  } finally {
    ef.internal.passConfig.maxFoldElements = fold;
  }
}

interface Mutation {
  kind: 'replace' | 'delete' | 'swap' | 'rename' | 'duplicate' | 'truncate' | 'byte';
  path: number[];
  value: J;
  n: number;
}

const interesting: fc.Arbitrary<J> = fc.oneof(
  fc.constantFrom<J>(null, 0, -1, 1, 3, 2 ** 31, 1e300, -0.5, '', 'x', 'x:1', 'x:9', '^x', 'Const', 'Identity', 'AddV2', 'StatelessIf', 'While', 'DT_DOUBLE', 'DT_INT32', 'DT_FLOAT',
    '__proto__', 'constructor', [], {}, true, false, { list: {} }, { type: 'DT_INT32' }, { i: '-5' }, { i: '99999999999' }, { s: '!!!' }, { shape: { unknownRank: true } }, { func: { name: 'nope' } }, [1, 2], ['x']),
  fc.jsonValue({ maxDepth: 2 }),
);

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Mutation['kind']>('replace', 'replace', 'delete', 'swap', 'rename', 'rename', 'duplicate', 'truncate', 'byte'),
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 9 }),
  value: interesting,
  n: fc.nat(),
});

/** Children of a JSON container as [key, value] pairs. */
function children(x: J): [string | number, J][] {
  if (Array.isArray(x)) return x.map((v, i) => [i, v]);
  if (x !== null && typeof x === 'object') return Object.entries(x as Record<string, J>);
  return [];
}

/** Walks `path` (indices modulo the child count) and returns the container and key reached. */
function locate(doc: J, path: number[]): { parent: Record<string | number, J>; key: string | number } | null {
  let parent: J = null;
  let key: string | number = '';
  let cur = doc;
  for (const p of path) {
    const kids = children(cur);
    if (kids.length === 0) break;
    [key] = kids[p % kids.length];
    parent = cur;
    cur = kids[p % kids.length][1];
  }
  return parent === null ? null : { parent: parent as Record<string | number, J>, key };
}

function strings(doc: J, out: string[] = []): string[] {
  if (typeof doc === 'string') out.push(doc);
  for (const [, v] of children(doc)) strings(v, out);
  return out;
}

function apply(doc: J, bytes: number[], m: Mutation): number[] {
  if (m.kind === 'truncate') return bytes.slice(0, m.n % (bytes.length + 1));
  if (m.kind === 'byte') return bytes.map((b, i) => (bytes.length && i === m.n % bytes.length ? (b ^ (1 << (m.n % 8))) & 255 : b));
  const at = locate(doc, m.path);
  if (at === null) return bytes;
  const { parent, key } = at;
  if (m.kind === 'replace') parent[key] = m.value === undefined ? undefined : JSON.parse(JSON.stringify(m.value) ?? 'null');
  else if (m.kind === 'delete') Array.isArray(parent) ? parent.splice(key as number, 1) : delete parent[key];
  else if (m.kind === 'duplicate' && Array.isArray(parent)) parent.push(JSON.parse(JSON.stringify(parent[key as number]) ?? 'null'));
  else if (m.kind === 'swap' && Array.isArray(parent) && parent.length > 1) {
    const j = m.n % parent.length;
    [parent[key as number], parent[j]] = [parent[j], parent[key as number]];
  } else if (m.kind === 'rename' && typeof parent[key] === 'string') {
    const pool = strings(doc);
    parent[key] = `${pool[m.n % pool.length]}${m.n % 3 === 0 ? ':1' : ''}`;
  }
  return bytes;
}

/** An internal bug shows as a JS engine error without our `(got ..., expected ...)` wording. */
function clean(e: unknown): string | null {
  if (!(e instanceof Error) || !e.message) return `not an Error with a message: ${String(e)}`;
  for (let c: unknown = e; c instanceof Error; c = (c as { cause?: unknown }).cause) {
    const engine = c instanceof TypeError || c instanceof RangeError || c instanceof ReferenceError || c instanceof SyntaxError;
    if (engine && !c.message.includes('(got ')) return `${c.constructor.name}: ${c.message}\n${c.stack}`;
  }
  return null;
}

/** Calls a loaded function once; a failure must be clean too; outputs are freed. */
function callOnce(g: ef.LoadedFunction, inputs: ef.Tensor[]): void {
  try {
    ef.tidy(() => void g(...inputs));
  } catch (e) {
    const why = clean(e);
    if (why !== null) throw new Error(`unclean call failure:\n${why}`);
  }
}

test(`loader fuzz: ${RUNS} mutated files load or fail cleanly, without leaks`, () => {
  const docs = bases();
  const limit = ef.loadLimits.maxElements;
  ef.loadLimits.maxElements = 1 << 16;
  const write = ef.internal.printOutput.write;
  ef.internal.printOutput.write = () => undefined;
  let loaded = 0;
  const t0 = Date.now();
  try {
    fc.assert(
      fc.property(fc.nat(docs.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), (which, ms) => {
        const doc = JSON.parse(JSON.stringify(docs[which].doc));
        let bytes = docs[which].bytes;
        for (const m of ms) bytes = apply(doc, bytes, m);
        const before = ef.memory().numTensors;
        try {
          const g = ef.loadFunction({ ...(doc as object), weightData: new Uint8Array(bytes).buffer }, { hostFunctions });
          loaded++;
          try {
            // Loops are not run: a mutated condition may never turn false (the graph's meaning, not a loader hang).
            if (!JSON.stringify(doc).includes('While')) callOnce(g, docs[which].inputs);
          } finally {
            g.dispose();
          }
        } catch (e) {
          const why = clean(e);
          if (why !== null) throw new Error(`unclean failure for mutations ${JSON.stringify(ms)}:\n${why}`);
        }
        if (ef.memory().numTensors !== before) throw new Error(`leaked ${ef.memory().numTensors - before} tensors for mutations ${JSON.stringify(ms)}`);
      }),
      { numRuns: RUNS, seed: SEED, interruptAfterTimeLimit: 60_000 },
    );
  } finally {
    ef.loadLimits.maxElements = limit;
    ef.internal.printOutput.write = write;
  }
  const ms = Date.now() - t0;
  // Some mutations are harmless (they still load); most must have been rejected.
  expect(loaded).toBeGreaterThan(0);
  expect(loaded).toBeLessThan(RUNS);
  expect(ms).toBeLessThan(20_000);
});
