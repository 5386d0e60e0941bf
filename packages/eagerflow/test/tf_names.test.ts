// "Each TF op name appears in one source file only, beside its record": TF op names of the GraphDef specs
// (every record's op and aliases) typed as string literals in packages/*/src, counted per file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';

const ROOT = path.resolve(__dirname, '../../..');

/** The TF op names the records write or read (declarative op + readAlso, or a codec's ops). */
function specOps(): Set<string> {
  const out = new Set<string>();
  for (const p of ef.internal.allPrimitives()) {
    const s = p.tf;
    if (s === undefined) continue;
    for (const op of ef.internal.isCodec(s) ? s.ops : [s.op, ...(s.readAlso ?? [])]) out.add(op);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * Comments removed (doc examples may name TF ops freely), and tfjs kernel calls (`k.run('Reshape', ...)`):
 * tfjs kernel names often equal TF op names, but a kernel call is not a GraphDef use.
 */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    .replace(/\brun(Kernel)?\(\s*'[A-Za-z0-9_]+'/g, 'run(KERNEL');
}

/** The string literals ('X', "X") of a source text that name one of `names`. */
function literals(text: string, names: Set<string>): Set<string> {
  const found = new Set<string>();
  for (const m of code(text).matchAll(/'([A-Za-z0-9_]+)'|"([A-Za-z0-9_]+)"/g)) {
    const s = m[1] ?? m[2];
    if (names.has(s)) found.add(s);
  }
  return found;
}

/**
 * The import-only alias/pattern table may name the ops its rows read as (Identity for Snapshot,
 * Conv2D+BiasAdd for _FusedConv2D): it points at records, it does not define them.
 */
const IMPORT_TABLE = [
  'packages/saving/src/imports.ts',
  'packages/saving/src/import_fused.ts',
  // tfjs-converter's fused forms as records (Prelu, _FusedConv2D on tfjs's fused kernels), written back as those ops.
  'packages/function/src/fused_records.ts',
  // TF1 import rows: control-flow pass-throughs (Identity in a loop frame), computed-shape patterns
  // (Reshape(x, Shape(y))), and the TF1 align_corners resize variants that write TF's ResizeBilinear back.
  'packages/saving/src/import_lists.ts',
  'packages/saving/src/import_detect.ts',
  // TF 2.x calls and resource variables (If/While taking handles read as the control-flow records do), and the
  // converter's ops read onto composites (DepthwiseConv2d is tfjs-converter's alias of DepthwiseConv2dNative).
  'packages/saving/src/import_calls.ts',
  'packages/saving/src/import_converter_ops.ts',
  // StridedSlice with computed begin/end, read ahead of the record's reader (which takes Const begin/end).
  'packages/saving/src/import_strided_slice.ts',
];

/**
 * The backend seam's kernel table names tfjs kernels (the ones tfjs-backend-wasm lacks or gets wrong,
 * packages/core/src/backend/kernel_gaps.ts), not GraphDef ops: tfjs kernel names often equal TF op names.
 */
const KERNEL_TABLE = [
  'packages/core/src/backend/kernel_gaps.ts',
  // The layout kernels run on complex64 by real and imaginary parts (tfjs's CPU kernels lack them): tfjs kernel names.
  'packages/core/src/backend/backend.ts',
  // Kernel helpers that split a complex64 value with tfjs's Real / Imag kernels for kernels that lack complex64.
  'packages/core/src/ops/kernel_util.ts',
];

/**
 * The SavedModel writer's own graph plumbing, not op records: signature wrappers (StatefulPartitionedCall, Identity
 * outputs), the saver (RestoreV2/AssignVariableOp, ReadVariableOp/SaveV2), TF's automatic control dependencies
 * between resource reads and assignments, and resource arguments threaded through If/While (whose stateless
 * forms it turns stateful). Every computation inside the functions is still written by the records' specs.
 */
const SAVED_MODEL_PLUMBING = ['packages/saving/src/saved_model_writer.ts', 'packages/saving/src/saved_model_functions.ts', 'packages/saving/src/saved_model_resources.ts'];

/** Files generated from TF's own registries (protobuf schemas, op output arguments): TF's vocabulary, not specs. */
const GENERATED = ['packages/saving/src/proto/tf_protos_schema.ts', 'packages/saving/src/proto/tf_output_args.ts'];

/**
 * Literals in the saving package (packages/saving): its writer and reader still type the graph plumbing
 * they emit or skip (Identity outputs, ReadVariableOp reads, lazy Shape/Range). Each pair must still
 * occur (prune it when fixed).
 */
const SAVING_PENDING: Readonly<Record<string, readonly string[]>> = {
  Identity: ['packages/saving/src/graphdef.ts', 'packages/saving/src/reader.ts', 'packages/saving/src/writer.ts'],
  // constant_fold.ts reads Shape/ShapeN/Rank/Size of inputs whose shape is known at load (grappler's shape
  // materialization): the value is the input's static shape, not a record run on constant inputs.
  Shape: ['packages/saving/src/reader.ts', 'packages/saving/src/constant_fold.ts'],
  Range: ['packages/saving/src/reader.ts', 'packages/saving/src/spec_io.ts'],
  ReadVariableOp: ['packages/saving/src/writer.ts'],
};

/**
 * ONNX lowering code types ONNX operator names (another vocabulary: many equal TF's, e.g. Identity,
 * Transpose, Cast), never TF op names; records keep their `onnx:` specs beside their `tf:` specs.
 */
const ONNX_NAMESPACE = ['packages/core/src/ops/onnx_lowerings.ts', 'packages/core/src/ops/onnx_grad_lowerings.ts', 'packages/function/src/onnx/'];

/** Where each spec op is typed as a literal, outside the import table. */
function occurrences(): Map<string, string[]> {
  const names = specOps();
  const where = new Map<string, string[]>();
  const files = fs.readdirSync(path.join(ROOT, 'packages')).flatMap((pkg) => {
    const src = path.join(ROOT, 'packages', pkg, 'src');
    return fs.existsSync(src) ? sourceFiles(src) : [];
  });
  for (const f of files) {
    const rel = path.relative(ROOT, f).split(path.sep).join('/');
    if (IMPORT_TABLE.includes(rel) || KERNEL_TABLE.includes(rel) || GENERATED.includes(rel) || SAVED_MODEL_PLUMBING.includes(rel) || ONNX_NAMESPACE.some((p) => rel.startsWith(p))) continue;
    for (const op of literals(fs.readFileSync(f, 'utf8'), names)) where.set(op, [...(where.get(op) ?? []), rel]);
  }
  return where;
}

describe('TF op names live beside their records', () => {
  test('the scan sees the spec table (it would catch a stray)', () => {
    const names = specOps();
    // Records across packages: core arithmetic, function's control flow.
    for (const op of ['AddV2', 'Conv2D', 'Pad', 'StatelessIf', 'StatelessWhile']) expect(names.has(op)).toBe(true);
    expect(literals("const a = 'AddV2'; // 'Pad'\n/* \"Conv2D\" */ const b = \"Sinh\"; k.run('Pad', {})", names)).toEqual(new Set(['AddV2', 'Sinh']));
    expect(occurrences().get('AddV2')?.length).toBe(1);
  });

  test('each spec op name is a string literal in one source file only', () => {
    const found = occurrences();
    const strays = [...found]
      .map(([op, files]) => [op, files.filter((f) => !(SAVING_PENDING[op] ?? []).includes(f))] as const)
      .filter(([, files]) => files.length > 1)
      .map(([op, files]) => `${op}: ${files.join(', ')}`);
    expect(strays).toEqual([]);
  });

  test('the saving allowance lists only literals still there', () => {
    const found = occurrences();
    const gone = Object.entries(SAVING_PENDING).flatMap(([op, files]) => files.filter((f) => !(found.get(op) ?? []).includes(f)).map((f) => `${op}: ${f}`));
    expect(gone).toEqual([]);
  });
});
