// The public ops every case row is keyed on: publicOps() (today derived from the umbrella's types; later the ef.internal op table).
import * as path from 'node:path';
import * as ts from 'typescript';
import * as ef from 'eagerflow';

const root = path.resolve(__dirname, '..', '..');

/**
 * Exports of `eagerflow` that return Tensors but are not ops, with the reason (they get no case row).
 * Everything else the umbrella exports that returns Tensors is a public op and needs a row.
 */
export const NOT_OPS: Record<string, string> = {
  // Host callbacks run user code: their own suites (packages/callbacks, browser/cases). (ef.whileLoop returns its loop
  // values, Tensors and TensorArrays, so the scan does not take it for an op: control_flow and tensor_array_loop tests.)
  pyFunction: 'host callback (packages/callbacks tests, browser/cases/callbacks.js)',
  numpyFunction: 'host callback (packages/callbacks tests, browser/cases/callbacks.js)',
  pyFunc: 'host callback, TF1 name (packages/callbacks tests)',
  convertToTensor: 'conversion, as ef.constant (packages/eagerflow/test/tf_idioms.test.ts)',
};

/** Whether `t` is Tensor, an array of them, or an object whose properties are all Tensors (topK's { values, indices }). */
function returnsTensors(t: ts.Type, checker: ts.TypeChecker): boolean {
  if (t.getSymbol()?.getName() === 'Tensor') return true;
  if (checker.isArrayType(t)) return returnsTensors(checker.getTypeArguments(t as ts.TypeReference)[0], checker);
  if (t.isUnion()) return t.types.every((u) => returnsTensors(u, checker));
  const props = t.getProperties();
  return (t.flags & ts.TypeFlags.Object) !== 0 && t.getSymbol()?.getName() === '__object' && props.length > 0
    && props.every((p) => returnsTensors(checker.getTypeOfSymbol(p), checker));
}

/** Names of the functions `eagerflow` exports whose return type is Tensors, read from the sources' types. */
export function umbrellaTensorFunctions(): string[] {
  const entry = path.join(root, 'packages/eagerflow/src/index.ts');
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, strict: true,
    noEmit: true, skipLibCheck: true, types: [], baseUrl: root, paths: { '@eagerflow/*': ['packages/*/src/index.ts'] },
  });
  const checker = program.getTypeChecker();
  const mod = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile) as ts.Symbol;
  const out: string[] = [];
  for (const exp of checker.getExportsOfModule(mod)) {
    const sym = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
    const decl = sym.valueDeclaration;
    if (!decl || sym.flags & ts.SymbolFlags.Class) continue;
    const type = checker.getTypeOfSymbolAtLocation(sym, decl);
    const sigs = type.getCallSignatures();
    if (sigs.length > 0 && sigs.every((s) => returnsTensors(s.getReturnType(), checker))) out.push(exp.getName());
  }
  return out.sort();
}

/** The public ops of the op table: one name per function (its top-level name where it has one). */
export function tableOps(): string[] {
  const byFn = new Map<unknown, string>();
  for (const [p, fn] of ef.internal.opEntries()) {
    const cur = byFn.get(fn);
    if (cur === undefined || (cur.includes('.') && !p.includes('.'))) byFn.set(fn, p);
  }
  return [...new Set(byFn.values())];
}

/**
 * Every public op: each must have at least one case row (`api` of the row). The op table's ops, plus
 * any other umbrella function returning Tensors that is not a documented non-op (constant, say).
 */
export function publicOps(): string[] {
  return [...new Set([...tableOps(), ...umbrellaTensorFunctions().filter((n) => NOT_OPS[n] === undefined)])].sort();
}
