// TF's hash tables as tfjs-converter runs them (TF1 graphs: HashTable(V2) filled by LookupTableImport(V2) or
// InitializeTable(V2) from Consts, queried by LookupTableFind(V2) with a default, LookupTableSize(V2)): the
// importer builds each table on the host when it loads the graph (its initializers are read from the graph, wherever
// they are), and a lookup is a host record holding the table's keys and values. A table whose contents are not
// Consts (a file, a computed tensor) fails at load naming the node.
import { Info, PRIMITIVES, Primitive, Tensor, TfImport, argError, backend, bind, registerPrimitive, tfOpOf } from '@eagerflow/core';
import type { DType, Params, ReadScope } from '@eagerflow/core';
import type { NodeReader } from './reader';
import type { ParsedNode } from './validate';

type Key = string | number;

const utf8 = new TextDecoder();
/** Host values as keys: numbers, and strings (byte arrays decoded as UTF-8). */
const asKeys = (xs: ArrayLike<unknown>): Key[] => Array.from(xs, (x) => (x instanceof Uint8Array ? utf8.decode(x) : (x as Key)));

/** A table: its key and value dtypes and contents (value order follows the keys). */
interface TableParams {
  readonly keyDtype: DType;
  readonly valueDtype: DType;
  readonly keys: readonly Key[];
  readonly values: readonly Key[];
}

const maps = new WeakMap<TableParams, Map<Key, Key>>();
const mapOf = (p: TableParams): Map<Key, Key> => {
  let m = maps.get(p);
  if (m === undefined) {
    m = new Map(p.keys.map((k, i) => [k, p.values[i]]));
    maps.set(p, m);
  }
  return m;
};

/** LookupTableFindV2(keys, default): each key's value, or the default. */
const hashTableFind = ((): Primitive<TableParams> => {
  const p = {
    name: 'hash_table_find',
    effect: 'pure',
    vjp: null,
    saves: 'none',
    infer(ins: { dtype: DType; shape: readonly (number | null)[] | null }[], q: TableParams) {
      const [keys, dflt] = ins;
      if (keys.dtype !== q.keyDtype) throw argError('LookupTableFindV2', 'the keys have the wrong dtype for this table', keys.dtype, q.keyDtype, `Cast the keys to ${q.keyDtype}.`);
      if (dflt.dtype !== q.valueDtype) throw argError('LookupTableFindV2', 'the default value has the wrong dtype for this table', dflt.dtype, q.valueDtype, `Cast the default to ${q.valueDtype}.`);
      return [{ dtype: q.valueDtype, shape: keys.shape }];
    },
    impl(k: { upload(v: unknown, shape: number[], dtype: DType): Info }, [keys, dflt]: Info[], q: TableParams) {
      const m = mapOf(q);
      const d = asKeys(backend.readInfoSync(dflt) as ArrayLike<unknown>)[0];
      const got = asKeys(backend.readInfoSync(keys) as ArrayLike<unknown>).map((x) => m.get(x) ?? d);
      const data = q.valueDtype === 'string' ? got : q.valueDtype === 'int32' ? Int32Array.from(got as number[]) : Float32Array.from(got as number[]);
      return [k.upload(data, [...keys.shape], q.valueDtype)];
    },
  } as unknown as Primitive<TableParams>;
  registerPrimitive(p as unknown as Primitive);
  return p;
})();

const MAKERS = new Set(['HashTable', 'HashTableV2']);
const FILLERS = new Set(['LookupTableImport', 'LookupTableImportV2', 'InitializeTable', 'InitializeTableV2']);

/** The HashTable node input 0 comes from (through Identity), or an error naming the reading node. */
function tableNode(r: ReadScope): ParsedNode {
  const scope = (r as unknown as NodeReader).scope;
  let n = r.producer(0) as ParsedNode | undefined;
  const identity = tfOpOf(PRIMITIVES.identity);
  while (n !== undefined && n.op === identity && n.inputs.length > 0) n = scope.has(n.inputs[0].node) ? scope.node(n.inputs[0].node) : undefined;
  if (n === undefined || !MAKERS.has(n.op)) throw r.error('the table handle does not come from a HashTable(V2) of this graph', `input '${r.refText(0)}'`, 'a HashTable or HashTableV2 node', 'Freeze the graph with its tables');
  return n;
}

const tables = new WeakMap<ParsedNode, TableParams>();

/** The table's contents, from the graph's initializer nodes of it (Const keys and values). */
function tableOf(r: ReadScope): TableParams {
  const node = tableNode(r);
  const cached = tables.get(node);
  if (cached !== undefined) return cached;
  const scope = (r as unknown as NodeReader).scope;
  const keyDtype = node.dtype('key_dtype');
  const valueDtype = node.dtype('value_dtype');
  const keys: Key[] = [];
  const values: Key[] = [];
  for (const f of scope.nodes.filter((n) => FILLERS.has(n.op) && n.inputs[0]?.node === node.name)) {
    const [k, v] = [1, 2].map((i) => {
      const ref = f.inputs[i];
      const src = ref === undefined ? undefined : scope.node(ref.node);
      if (src?.op !== 'Const') throw r.error(`table '${node.name}' is filled by ${f.op} '${f.name}' from a non-Const`, `input '${ref?.text ?? '?'}' (${src?.op ?? 'missing'})`, 'Const keys and values', 'Freeze the graph (tables from files are not supported)');
      return asKeys(scope.tensorAt(ref, `node '${f.name}' (${f.op})`).dataSync() as ArrayLike<unknown>);
    });
    if (k.length !== v.length) throw r.error(`${f.op} '${f.name}' has ${k.length} keys and ${v.length} values`, `${k.length} and ${v.length}`, 'one value per key', 'Fix the graph');
    keys.push(...k);
    values.push(...v);
  }
  const p: TableParams = { keyDtype, valueDtype, keys, values };
  tables.set(node, p);
  return p;
}

/** A scalar int32 stand-in for a table handle (the lookups find the table through the graph). */
const handle = (r: ReadScope): Tensor => (r as unknown as NodeReader).scope.ctx.constTensor({ dtype: 'int32', shape: [], data: Int32Array.of(0) });

/** Rows reading TF's hash-table ops. */
export const HASH_TABLE_IMPORT_ROWS: readonly TfImport[] = [
  { ops: ['HashTable', 'HashTableV2'], read: (r) => (r.arity(0), [handle(r)]) },
  // The initializers are applied when the table is built (they have no outputs).
  { ops: ['LookupTableImport', 'LookupTableImportV2', 'InitializeTable', 'InitializeTableV2'], read: (r) => (r.arity(3), tableOf(r), []) },
  {
    ops: ['LookupTableFind', 'LookupTableFindV2'],
    read: (r) => {
      r.arity(3);
      const t = tableOf(r);
      const [keys, dflt] = [r.input(1), r.input(2)];
      if (keys.dtype !== t.keyDtype) throw r.error('the keys have the wrong dtype for this table', `${keys.dtype} keys`, `${t.keyDtype} keys`, `Cast the keys to ${t.keyDtype}`);
      return bind(hashTableFind as unknown as Primitive, [keys, dflt], t as unknown as Params);
    },
  },
  {
    ops: ['LookupTableSize', 'LookupTableSizeV2'],
    read: (r) => (r.arity(1), [(r as unknown as NodeReader).scope.ctx.constTensor({ dtype: 'int32', shape: [], data: Int32Array.of(new Set(tableOf(r).keys).size) })]),
  },
];
