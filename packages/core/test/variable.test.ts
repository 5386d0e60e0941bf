// Variables (API section 3): construction options, assign/assignAdd/assignSub, value(), errors, use as tensors.
import * as ef from 'eagerflow';
import { lateTable } from '../src/values/tensor';

const vars: ef.Variable[] = [];
/** A variable disposed after the test. */
function variable(init: ef.TensorLike, options?: ef.VariableOptions): ef.Variable {
  const v = new ef.Variable(init, options);
  vars.push(v);
  return v;
}

afterEach(() => {
  vars.splice(0).forEach((v) => v.dispose());
});

/** The current value as nested arrays (the read tensor is disposed). */
function read(v: ef.Variable): unknown {
  const t = v.value();
  try {
    return t.arraySync();
  } finally {
    t.dispose();
  }
}

describe('construction', () => {
  test('defaults: trainable, a unique name, dtype and shape of the initial value', () => {
    const a = variable([1, 2]);
    const b = variable([[1, 2, 3]], { dtype: 'int32' });
    expect(a.trainable).toBe(true);
    expect(b.trainable).toBe(true);
    expect(a.name).not.toBe(b.name);
    expect(a.dtype).toBe('float32');
    expect(b.dtype).toBe('int32');
    expect(b.shape.toString()).toBe('(1, 3)');
    expect(read(b)).toEqual([[1, 2, 3]]);
  });

  test('options: trainable false, name, dtype', () => {
    const v = variable(0, { trainable: false, name: 'step', dtype: 'int32' });
    expect(v.trainable).toBe(false);
    expect(v.name).toBe('step');
    expect(v.dtype).toBe('int32');
  });

  test('from a Tensor, a Variable, an NDArray and a TypedArray', () => {
    const t = ef.constant([1, 2]);
    const fromT = variable(t);
    t.dispose();
    expect(read(fromT)).toEqual([1, 2]);
    const fromV = variable(fromT);
    fromT.assign([3, 4]);
    expect(read(fromV)).toEqual([1, 2]);
    expect(read(variable(ef.ndarray([[5]])))).toEqual([[5]]);
    expect(variable(new Int32Array([1])).dtype).toBe('int32');
  });

  test('an initial value not representable in the dtype is a TypeError', () => {
    expect(() => new ef.Variable([1.5], { dtype: 'int32' })).toThrow(TypeError);
    expect(() => new ef.Variable([1], { dtype: 'float16' as ef.DType })).toThrow(/Variable: Cannot convert "float16"/);
  });

  test('repr like tf.Variable', () => {
    const v = variable([1, 2], { name: 'w' });
    expect(v.toString()).toBe("<tf.Variable 'w' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>");
    const m = variable([[1, 2], [3, 4]], { name: 'm', dtype: 'int32' });
    expect(m.toString()).toBe("<tf.Variable 'm' shape=(2, 2) dtype=int32, numpy=\narray([[1, 2],\n       [3, 4]], dtype=int32)>");
  });
});

describe('assignment', () => {
  test('assign, assignAdd, assignSub return the variable and update its value', () => {
    const v = variable([1, 2]);
    expect(v.assign([10, 20])).toBe(v);
    expect(read(v)).toEqual([10, 20]);
    v.assignAdd([1, 1]).assignSub(ef.ones([2]).toTfjs());
    expect(read(v)).toEqual([10, 20]);
    v.assignSub([0.5, 0.5]);
    expect(read(v)).toEqual([9.5, 19.5]);
    // Like TensorFlow's assign_sub, the update must have the variable's shape (no broadcasting).
    expect(() => v.assignSub(0.5)).toThrow(/got \(\), expected \(2,\)/);
  });

  test('a value read earlier keeps its value after an assign', () => {
    const v = variable([1, 2]);
    const before = v.value();
    v.assign([7, 8]);
    expect(before.arraySync()).toEqual([1, 2]);
    before.dispose();
  });

  test('assign from another variable and from a tensor', () => {
    const a = variable([1, 2]);
    const b = variable([3, 4]);
    a.assign(b);
    b.assign([0, 0]);
    expect(read(a)).toEqual([3, 4]);
    const t = ef.constant([5, 6]);
    a.assign(t);
    t.dispose();
    expect(read(a)).toEqual([5, 6]);
  });

  test('int32 variables take JS numbers as int32', () => {
    const v = variable([1, 2], { dtype: 'int32' });
    v.assignAdd([1, 1]);
    expect(read(v)).toEqual([2, 3]);
    expect(() => v.assign([1.5, 2])).toThrow(TypeError);
  });

  test('a dtype mismatch is an InvalidArgumentError naming got and expected', () => {
    const v = variable([1, 2]);
    const i = ef.constant([1, 2], 'int32');
    expect(() => v.assign(i)).toThrow(ef.errors.InvalidArgumentError);
    expect(() => v.assign(i)).toThrow("Variable.assign: dtype does not match the variable (got int32, expected float32). Cast the value with ef.cast(x, 'float32').");
    i.dispose();
  });

  test('a shape mismatch is an InvalidArgumentError and leaves the value unchanged', () => {
    const v = variable([1, 2]);
    const before = ef.memory().numTensors;
    expect(() => v.assignAdd([1, 2, 3])).toThrow(/^Variable.assignAdd: shape does not match the variable \(got \(3,\), expected \(2,\)\)\. /);
    expect(ef.memory().numTensors).toBe(before);
    expect(read(v)).toEqual([1, 2]);
  });
});

describe('a Variable wherever a Tensor is read', () => {
  test('ops read the current value and leak nothing', () => {
    const v = variable([1, 2]);
    const before = ef.memory().numTensors;
    const y = ef.multiply(v, v);
    expect(ef.memory().numTensors).toBe(before + 1);
    expect(y.arraySync()).toEqual([1, 4]);
    y.dispose();
    v.assign([3, 3]);
    const z = ef.add(v, 1);
    expect(z.arraySync()).toEqual([4, 4]);
    z.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });

  test('gradients flow to trainable variables, not to non-trainable ones', () => {
    const w = variable([1, 2]);
    const frozen = variable([3, 4], { trainable: false });
    ef.tidy(() => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => ef.reduceSum(ef.multiply(w, frozen)));
      const [gw, gf] = tape.gradient(y, [w, frozen]);
      expect(gw?.arraySync()).toEqual([3, 4]);
      expect(gf).toBeNull();
    });
  });

  test('value() is a fresh tensor each time; disposing it does not affect the variable', () => {
    const v = variable([1]);
    const a = v.value();
    const b = v.value();
    expect(a).not.toBe(b);
    a.dispose();
    expect(b.arraySync()).toEqual([1]);
    b.dispose();
    expect(read(v)).toEqual([1]);
  });

  test('dispose frees the value; ef.dispose accepts variables', () => {
    const before = ef.memory().numTensors;
    const v = new ef.Variable([1, 2]);
    expect(ef.memory().numTensors).toBeGreaterThan(before);
    ef.dispose(v);
    expect(ef.memory().numTensors).toBe(before);
  });
});

describe('values/ reaches the variable records through a late-bound table (ops/late_ops.ts fills it)', () => {
  test('the filled table runs the records: a read is a read_variable node, an assignment an assign_variable node', () => {
    const v = variable([1, 2]);
    const f = ef.trace(() => {
      v.assignAdd([1, 1]);
      return v.value();
    });
    const prims = f.getConcreteFunction().graph.nodes.map((n: { prim: { name: string } }) => n.prim.name);
    expect(prims).toEqual(expect.arrayContaining(['assign_variable', 'read_variable']));
    expect(f().arraySync()).toEqual([2, 3]);
    f.dispose();
  });

  test('an empty table names the op and what to load, as an InternalError', () => {
    const table = lateTable<{ read(x: number): number }>('the test ops');
    expect(() => table.get('read')).toThrow(ef.errors.InternalError);
    expect(() => table.get('read')).toThrow(/read.*the test ops are not loaded \(import @eagerflow\/core/);
    table.provide({ read: (x) => x + 1 });
    expect(table.get('read')(1)).toBe(2);
  });
});
