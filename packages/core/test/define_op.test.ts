// defineOp's derived defaults and the record registry: names known in the source are checked by the compiler
// (the @ts-expect-error lines fail `npm run typecheck` if a misspelt name ever compiles), names from data by NotFoundError.
import * as ef from 'eagerflow';

const { defineOp, getRecord, recordByName, findRecord, isPrimitive, PRIMITIVES, registerPrimitive, allPrimitives } = ef.internal;

describe('defineOp derives what a record leaves out', () => {
  test('a unary family record: kernel, TF op and ONNX op from the IR name; pure, saves from the vjp', () => {
    const sinh = getRecord('sinh');
    expect(sinh.name).toBe('sinh');
    expect(sinh.effect).toBe('pure');
    expect(sinh.tf).toEqual({ op: 'Sinh' });
    expect(sinh.onnx).toEqual({ op: 'Sinh' });
    expect(sinh.saves).toBe('inputs');
    expect(sinh.api?.paths).toEqual(['math.sinh', 'sinh']);
    // The derived shape rule checks dtypes (float32 by default for unary records) naming the op.
    expect(() => sinh.infer([{ dtype: 'int32', shape: [2] }], {})).toThrow(/sinh/);
  });

  test('bool-only records save without a T attr; reductions name errors by their API path', () => {
    expect(getRecord('logical_and').tf).toEqual({ op: 'LogicalAnd', noT: true });
    const any = getRecord('any');
    expect((any.tf as { op: string; noT?: boolean }).op).toBe('Any');
    expect((any.tf as { noT?: boolean }).noT).toBe(true);
    expect(any.saves).toBe('none');
    expect(any.vjp).toBeNull();
    expect(() => any.infer([{ dtype: 'float32', shape: [2] }], { axes: null, keepDims: false })).toThrow(/^reduceAny: /);
    // A reduction with a gradient keeps what its rule reads.
    expect(getRecord('min').saves).toBe('both');
  });

  test('an onnx declaration without op takes the TF op; explicit kernels and TF specs win', () => {
    expect(getRecord('neg').onnx).toEqual({ op: 'Neg', dtypes: ['float32', 'int32'] });
    expect(getRecord('less_equal').onnx).toEqual({ op: 'LessOrEqual', dtypes: ['float32', 'int32'] });
    expect(getRecord('mul').tf).toEqual({ op: 'Mul' });
    expect(getRecord('add').tf).toEqual({ op: 'AddV2', readAlso: ['Add'] });
  });

  test('a record with its own rules: only the named fields plus the defaults; the builder fields are not on the record', () => {
    const rec = defineOp({
      name: 'test_double',
      infer: (ins: ef.internal.AVal[]) => [{ dtype: ins[0].dtype, shape: ins[0].shape }],
      impl: (k, [x]) => [k.run('Add', { a: x, b: x }) as ef.internal.Info],
    });
    expect(rec.name).toBe('test_double');
    expect(rec.effect).toBe('pure');
    expect(rec.vjp).toBeNull();
    expect(rec.saves).toBe('none');
    expect(Object.keys(rec).sort()).toEqual(['effect', 'impl', 'infer', 'name', 'saves', 'vjp']);
    const before = ef.memory().numTensors;
    const x = ef.constant([1, 2]);
    const [y] = ef.internal.bind(rec, [x], {});
    expect(Array.from(y.dataSync() as Float32Array)).toEqual([2, 4]);
    ef.dispose([x, y]);
    expect(ef.memory().numTensors).toBe(before);
  });
});

describe('the registry', () => {
  test('literal names are compile-checked', () => {
    expect(PRIMITIVES.exp).toBe(getRecord('exp'));
    expect(isPrimitive(PRIMITIVES.add, 'add')).toBe(true);
    expect(isPrimitive(PRIMITIVES.add, 'sub')).toBe(false);
    const name: ef.internal.PrimitiveName = 'matmul';
    expect(getRecord(name).name).toBe('matmul');
    // @ts-expect-error: not an IR name of the table
    expect(() => getRecord('sinhh').name).toThrow();
    // @ts-expect-error: not an IR name of the table
    const bad: ef.internal.PrimitiveName = 'reduce_any';
    expect(findRecord(bad)).toBeUndefined();
  });

  test('names from data: the record, or a NotFoundError naming the site and the name', () => {
    expect(recordByName('add', 'test reader')).toBe(PRIMITIVES.add);
    let caught: unknown;
    try {
      recordByName('no_such_op', 'my graph reader');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ef.errors.NotFoundError);
    expect((caught as Error).message).toMatch(/^my graph reader: no primitive named 'no_such_op'/);
    expect(findRecord('no_such_op')).toBeUndefined();
  });

  test('registered records are found by name from data; a second record of a name is refused', () => {
    const rec = defineOp({ name: 'test_registered_identity', infer: (ins: ef.internal.AVal[]) => [ins[0]], impl: (k, [x]) => [k.run('Identity', { x }) as ef.internal.Info] });
    registerPrimitive(rec);
    registerPrimitive(rec);
    expect(recordByName('test_registered_identity', 'test')).toBe(rec);
    expect(allPrimitives()).toContain(rec);
    const twin = { ...rec };
    expect(() => registerPrimitive(twin)).toThrow(/a second primitive named 'test_registered_identity'/);
    expect(() => registerPrimitive({ ...PRIMITIVES.add })).toThrow(/a second primitive named 'add'/);
  });
});
