// The graph IR: listings (inline snapshots), operations, and the passes (folding, CSE, DCE) with effects and the verifier.
import * as ef from 'eagerflow';

const P = ef.internal.PRIMITIVES;
const graphOf = (f: ef.TracedFunction, ...args: unknown[]): ef.Graph => f.getConcreteFunction(...args).graph;

/** Captures ef.print lines written while `fn` runs. */
function printed(fn: () => void): string[] {
  const lines: string[] = [];
  const write = ef.internal.printOutput.write;
  ef.internal.printOutput.write = (line) => lines.push(line);
  try {
    fn();
  } finally {
    ef.internal.printOutput.write = write;
  }
  return lines;
}

describe('listings', () => {
  test('a dense layer: named constants, partial shapes, params', () => {
    const dense = ef.trace((x: ef.Tensor) => ef.relu(ef.matmul(x, ef.constant([[1, 2], [3, 4], [5, 6]]))), { name: 'dense' });
    expect(graphOf(dense, new ef.TensorSpec([null, 3])).toString()).toMatchInlineSnapshot(`
"graph dense(x: f32[?,3]) {
  c0: f32[3,2] = const [[1., 2.], [3., 4.], [5., 6.]]
  a: f32[?,2] = matmul[transposeA=false, transposeB=false] x c0
  b: f32[?,2] = relu a
  return b
}"
`);
  });

  test('stateful nodes are marked !io and listed in program order', () => {
    const v = new ef.Variable([1, 2], { name: 'w' });
    const f = ef.trace(
      (x: ef.Tensor) => {
        ef.print('x is', x);
        v.assignAdd(x);
        ef.print('x is', x);
        return v.value();
      },
      { name: 'stateful' },
    );
    expect(graphOf(f, new ef.TensorSpec([2])).toString()).toMatchInlineSnapshot(`
"graph stateful(x: f32[2]) {
  print["x is", _] x   !io
  assign_variable[w, assignAdd] x   !io
  print["x is", _] x   !io
  a: f32[2] = read_variable[w]   !io
  return a
}"
`);
  });

  test('cond and whileLoop print their branch and body graphs nested', () => {
    const branchy = ef.trace((x: ef.Tensor) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.multiply(x, 2), () => ef.negative(x)), { name: 'branchy' });
    expect(graphOf(branchy, new ef.TensorSpec([null])).toString()).toMatchInlineSnapshot(`
"graph branchy(x: f32[?]) {
  a: f32[] = sum[axes=null, keepDims=false] x
  b: bool[] = greater a 0.0
  c: f32[?] = cond[nTrue=1] b x x {
    graph branchy_true(capture_0: f32[?]) {
      a: f32[?] = mul capture_0 2.0
      return a
    }
    graph branchy_false(capture_0: f32[?]) {
      a: f32[?] = neg capture_0
      return a
    }
  }
  return c
}"
`);
    const loop = ef.trace(
      (n: ef.Tensor) => ef.whileLoop((i: ef.Tensor) => ef.less(i, n), (i: ef.Tensor, a: ef.Tensor) => [ef.add(i, 1), ef.multiply(a, 2)], [ef.constant(0, 'int32'), ef.constant(1)], { maximumIterations: 10 })[1],
      { name: 'loop' },
    );
    expect(graphOf(loop, new ef.TensorSpec([], 'int32')).toString()).toMatchInlineSnapshot(`
"graph loop(n: i32[]) {
  a: i32[], b: f32[] = while[nVars=2, nCondCaps=1, maximumIterations=10] 0 1.0 n {
    graph loop_cond(v0: i32[], v1: f32[], capture_0: i32[]) {
      a: bool[] = less v0 capture_0
      return a
    }
    graph loop_body(v0: i32[], v1: f32[]) {
      a: i32[] = add v0 1
      b: f32[] = mul v1 2.0
      return a, b
    }
  }
  return b
}"
`);
  });

  test('nested argument structures name inputs by path; unknown rank prints as *', () => {
    const f = ef.trace((p: { w: ef.Tensor; b: ef.Tensor }, xs: ef.Tensor[]) => ef.add(ef.multiply(xs[1], p.w), p.b), { name: 'affine' });
    expect(graphOf(f, { w: new ef.TensorSpec(null), b: new ef.TensorSpec([]) }, [new ef.TensorSpec([2], 'int32'), new ef.TensorSpec([2])]).toString()).toMatchInlineSnapshot(`
"graph affine(p_b: f32[], p_w: f32[*], xs_0: i32[2], xs_1: f32[2]) {
  a: f32[*] = mul xs_1 p_w
  b: f32[*] = add a p_b
  return b
}"
`);
  });
});

describe('graph.operations', () => {
  test('one record per node: name, type, inputs, outputs, attrs', () => {
    const f = ef.trace((x: ef.Tensor) => ef.reduceSum(ef.multiply(ef.multiply(x, x), 3), 1, true));
    expect(graphOf(f, new ef.TensorSpec([2, 2])).operations).toEqual([
      { name: 'mul', type: 'mul', inputs: ['x', 'x'], outputs: ['a'], attrs: {}, stateful: false },
      { name: 'mul_1', type: 'mul', inputs: ['a', '3.0'], outputs: ['b'], attrs: {}, stateful: false },
      { name: 'sum', type: 'sum', inputs: ['b'], outputs: ['c'], attrs: { axes: [1], keepDims: true }, stateful: false },
    ]);
  });

  test('stateful operations are flagged', () => {
    const v = new ef.Variable(1, { name: 'counter' });
    const f = ef.trace(() => {
      v.assignAdd(1);
      return ef.constant(0);
    });
    const ops = graphOf(f).operations;
    expect(ops.map((o) => [o.type, o.stateful, o.attrs.variable])).toEqual([['assign_variable', true, 'counter']]);
  });
});


describe('passes inside ef.trace', () => {
  test('constant folding evaluates constant-only pure nodes at trace time', () => {
    const f = ef.trace((x: ef.Tensor) => ef.add(x, ef.multiply(ef.constant([1, 2]), ef.add(1, 2))), { name: 'fold' });
    expect(graphOf(f, new ef.TensorSpec([2])).toString()).toMatchInlineSnapshot(`
"graph fold(x: f32[2]) {
  c0: f32[2] = const [3., 6.]
  a: f32[2] = add x c0
  return a
}"
`);
    expect(f(ef.constant([1, 1])).arraySync()).toEqual([4, 7]);
  });

  test('folding is bounded by passConfig.maxFoldElements', () => {
    const saved = ef.internal.passConfig.maxFoldElements;
    ef.internal.passConfig.maxFoldElements = 2;
    try {
      const f = ef.trace((x: ef.Tensor) => ef.add(x, ef.fill([3], 2)));
      expect(graphOf(f, new ef.TensorSpec([3])).operations.map((o) => o.type)).toEqual(['fill', 'add']);
      expect(f(ef.constant([1, 1, 1])).arraySync()).toEqual([3, 3, 3]);
    } finally {
      ef.internal.passConfig.maxFoldElements = saved;
    }
  });

  test('common subexpressions: identical pure nodes are merged', () => {
    const f = ef.trace((x: ef.Tensor, y: ef.Tensor) => ef.add(ef.multiply(x, y), ef.multiply(x, y)));
    expect(graphOf(f, new ef.TensorSpec([2]), new ef.TensorSpec([2])).operations.map((o) => `${o.type} ${o.inputs.join(' ')}`)).toEqual(['mul x y', 'add a a']);
  });

  test('dead code: unused pure nodes are dropped', () => {
    const f = ef.trace((x: ef.Tensor) => {
      ef.exp(x);
      ef.reduceSum(ef.sin(x));
      return ef.negative(x);
    });
    expect(graphOf(f, new ef.TensorSpec([2])).operations.map((o) => o.type)).toEqual(['neg']);
  });

  test('stateful nodes are never dropped, merged or reordered, and run once per call per appearance', () => {
    const v = new ef.Variable(0, { name: 'n' });
    const f = ef.trace((x: ef.Tensor) => {
      ef.print('x:', x);
      v.assignAdd(1);
      ef.print('x:', x);
      v.assignAdd(1);
      return ef.identity(x);
    });
    const lines = printed(() => {
      f(ef.constant(1));
      f(ef.constant(2));
    });
    expect(lines).toEqual(['x: 1', 'x: 1', 'x: 2', 'x: 2']);
    expect(v.value().item()).toBe(4);
    expect(graphOf(f, ef.constant(0)).operations.map((o) => o.type)).toEqual(['print', 'assign_variable', 'print', 'assign_variable', 'identity']);
    expect(f.tracingCount).toBe(1);
  });

  test('ef.print prints when the graph runs, not when it is traced', () => {
    const f = ef.trace((x: ef.Tensor) => {
      ef.print('value', ef.multiply(x, 10));
      return x;
    });
    const cf = printed(() => void f.getConcreteFunction(new ef.TensorSpec([])));
    expect(cf).toEqual([]);
    expect(printed(() => void f(ef.constant(0.5)))).toEqual(['value 5']);
  });
});

/** A graph with duplicate pure nodes, an unused pure node and a stateful print. */
function handBuilt(): ef.Graph {
  const b = new ef.internal.GraphBuilder('g');
  const x = b.addInput('float32', [2], 'x');
  const [m1] = b.add(P.mul, [x, x], {});
  const [m2] = b.add(P.mul, [x, x], {});
  b.add(P.exp, [x], {});
  b.add(P.print, [x], { template: [null] });
  b.add(P.print, [x], { template: [null] });
  const [s] = b.add(P.add, [m1, m2], {});
  return b.finish([s]);
}

const listing = (g: ef.Graph): string[] => g.operations.map((o) => `${o.outputs.join(',')}${o.outputs.length ? ' = ' : ''}${o.type} ${o.inputs.join(' ')}`);

describe('passes as pure Graph -> Graph functions', () => {
  test('commonSubexpressions merges the pure duplicates only', () => {
    const g = handBuilt();
    const out = ef.internal.verify(ef.internal.commonSubexpressions(g), g);
    expect(listing(out)).toEqual(['a = mul x x', 'b = exp x', 'print x', 'print x', 'c = add a a']);
    expect(listing(g)).toEqual(['a = mul x x', 'b = mul x x', 'c = exp x', 'print x', 'print x', 'd = add a b']);
  });

  test('deadCode drops unused pure nodes and keeps stateful ones', () => {
    const g = handBuilt();
    const out = ef.internal.verify(ef.internal.deadCode(g), g);
    expect(listing(out)).toEqual(['a = mul x x', 'b = mul x x', 'print x', 'print x', 'c = add a b']);
  });

  test('optimize runs the default passes with the verifier', () => {
    const g = ef.internal.optimize(handBuilt());
    expect(listing(g)).toEqual(['a = mul x x', 'print x', 'print x', 'b = add a a']);
  });
});

describe('the verifier', () => {
  const malformed = (edit: (g: ef.Graph) => ef.Graph): (() => ef.Graph) => () => ef.internal.verify(edit(handBuilt()));

  test('a node reading a value before it is defined', () => {
    expect(malformed((g) => new ef.Graph(g.name, g.values, g.nodes.slice().reverse(), g.inputs, g.outputs))).toThrow(/verify\(g\): node 0 \(add\) reads value \d+ before it is defined/);
  });

  test('a value defined twice', () => {
    expect(malformed((g) => new ef.Graph(g.name, g.values, [g.nodes[0], ...g.nodes], g.inputs, g.outputs))).toThrow(/verify\(g\): value \d+ is defined twice/);
  });

  test('an output that is never defined', () => {
    expect(malformed((g) => new ef.Graph(g.name, g.values, g.nodes.slice(0, 2), g.inputs, g.outputs))).toThrow(/verify\(g\): output \d+ is never defined/);
  });

  test('a pass that drops, merges or reorders stateful nodes', () => {
    const dropPrints: ef.internal.Pass = (g) => new ef.Graph(g.name, g.values, g.nodes.filter((n) => n.prim !== P.print), g.inputs, g.outputs);
    expect(() => ef.internal.optimize(handBuilt(), [dropPrints])).toThrow(/verify\(g\): a pass dropped, merged or reordered a stateful node/);
    const v = new ef.Variable(1);
    const b = new ef.internal.GraphBuilder('h');
    const x = b.addInput('float32', [], 'x');
    b.add(P.print, [x], { template: [null] });
    b.add(P.assign_variable, [x], { variable: v, mode: 'assign' });
    const g = b.finish([x]);
    const swap: ef.internal.Pass = (h) => new ef.Graph(h.name, h.values, [h.nodes[1], h.nodes[0]], h.inputs, h.outputs);
    expect(() => ef.internal.optimize(g, [swap])).toThrow(/verify\(h\): a pass dropped, merged or reordered a stateful node/);
    expect(ef.internal.optimize(g).nodes.map((n) => n.prim.name)).toEqual(['print', 'assign_variable']);
  });
});
