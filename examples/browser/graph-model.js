// The graph view's model: a traced Graph (or ConcreteFunction) as nodes, edges, constant chips and fused frames, ready for layout.
/* global globalThis */
(function (root) {
  'use strict';

  const SHORT = { float32: 'f32', int32: 'i32', bool: 'bool', complex64: 'c64', string: 'str', float16: 'f16', int64: 'i64', uint8: 'u8' };
  /** Elements of a constant shown as its value in its chip (larger ones show their type). */
  const CHIP_VALUES = 4;

  /** `f32[?,3]` (unknown dims `?`, unknown rank `*`), as the graph listing prints types. */
  function typeString(dtype, shape) {
    const dims = shape === null || shape === undefined ? '*' : shape.map((d) => (d === null ? '?' : String(d))).join(',');
    return `${SHORT[dtype] || dtype}[${dims}]`;
  }

  /** Printable names a, b, ..., z, aa, ab, ... (the graph listing's scheme). */
  function letters(k) {
    let s = '';
    let n = k;
    do {
      s = String.fromCharCode(97 + (n % 26)) + s;
      n = Math.floor(n / 26) - 1;
    } while (n >= 0);
    return s;
  }

  const isGraph = (x) => x !== null && typeof x === 'object' && Array.isArray(x.nodes) && Array.isArray(x.values) && Array.isArray(x.inputs) && Array.isArray(x.outputs);
  const short = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

  function formatNumber(dtype, x) {
    if (dtype === 'bool') return x ? 'True' : 'False';
    if (typeof x !== 'number') return String(x);
    if (dtype.startsWith('float')) return Number.isInteger(x) ? `${x}.0` : String(Number(x.toPrecision(4)));
    return String(x);
  }

  /** A constant's chip text: its value when small, else its name and type. */
  function chipText(v, name, read) {
    const c = v.constant;
    const size = c && c.shape ? c.shape.reduce((a, b) => a * b, 1) : Infinity;
    if (c && size <= CHIP_VALUES) {
      try {
        const vals = Array.from(read(c)).map((x) => formatNumber(v.dtype, x));
        return c.shape.length === 0 ? vals[0] : `[${vals.join(', ')}]`;
      } catch {
        /* unreadable (disposed): fall through to the type */
      }
    }
    return `${name}: ${typeString(v.dtype, v.shape)}`;
  }

  /** What a node shows beyond `name = op`: the variable, the callback's name, or the fused members. */
  function detail(node) {
    const p = node.params || {};
    if (p.variable && typeof p.variable.name === 'string') return `var ${p.variable.name}`;
    if (node.prim.name === 'host_callback') return `callback ${p.name || (p.token && p.token.key) || (p.token && p.token.token) || p.flavor}${p.flavor && p.flavor !== 'pyFunction' ? ` (${p.flavor})` : ''}`;
    return null;
  }

  /** The body graphs of a cond/while node, with their roles. */
  function bodiesOf(node) {
    const p = node.params || {};
    return Object.keys(p).filter((k) => isGraph(p[k])).map((k) => ({ role: k.replace(/Graph$/, ''), graph: p[k] }));
  }

  /**
   * The view model of a Graph: `nodes` (inputs, ops, outputs by return position), `edges` (one per
   * producer -> consumer pair), `groups` (fused frames when `fusedFrom` is the executor's graph).
   * Ids are prefixed with `prefix` so body graphs can sit inside their parent's model.
   */
  function fromGraph(graph, opts = {}) {
    const prefix = opts.prefix || '';
    const read = opts.read || ((c) => c.dataSync());
    const stateful = new Map();
    let ops = [];
    try {
      ops = graph.operations;
    } catch {
      ops = [];
    }
    graph.nodes.forEach((n, i) => stateful.set(n, Boolean(ops[i] && ops[i].stateful)));
    // Fused groups (executor graph): their members are the source graph's nodes, drawn inside a frame.
    const nodesInOrder = [];
    const groups = [];
    for (const n of graph.nodes) {
      if (n.prim.name === 'fused_elementwise' && n.params && Array.isArray(n.params.nodes)) {
        const id = `${prefix}fused${groups.length}`;
        groups.push({ id, label: `fused ×${n.params.nodes.length}`, members: [] });
        for (const m of n.params.nodes) nodesInOrder.push({ node: m, group: groups[groups.length - 1] });
      } else nodesInOrder.push({ node: n, group: null });
    }
    const names = new Map();
    const taken = new Set();
    graph.inputs.forEach((i, k) => {
      const nm = graph.values[i].name || `arg${k}`;
      names.set(i, nm);
      taken.add(nm);
    });
    let k = 0;
    for (const { node } of nodesInOrder) {
      for (const o of node.outputs) {
        let nm = letters(k++);
        while (taken.has(nm)) nm = letters(k++);
        names.set(o, nm);
      }
    }
    let c = 0;
    graph.values.forEach((v, i) => {
      if (v.kind === 'const') names.set(i, `c${c++}`);
    });
    const name = (i) => names.get(i) || `%${i}`;

    const nodes = [];
    const edges = [];
    const producer = new Map();
    const edgeSeen = new Map();
    const link = (from, to, value) => {
      const key = `${from}->${to}`;
      const e = edgeSeen.get(key);
      if (e) {
        e.values.push(value);
        return;
      }
      const edge = { id: `${prefix}e${edges.length}`, source: from, target: to, values: [value] };
      edgeSeen.set(key, edge);
      edges.push(edge);
    };
    graph.inputs.forEach((i, pos) => {
      const id = `${prefix}in${pos}`;
      const v = graph.values[i];
      nodes.push({ id, kind: 'input', lines: [name(i), typeString(v.dtype, v.shape)], title: `input ${pos}: ${name(i)}: ${typeString(v.dtype, v.shape)}`, chips: [] });
      producer.set(i, id);
    });
    let constants = 0;
    /** Wires a value into node `id`: an edge from its producer, or a chip for a constant. */
    const wire = (i, id, chips) => {
      const v = graph.values[i];
      if (v.kind === 'const') {
        constants++;
        chips.push({ text: short(chipText(v, name(i), read), 24), title: `${name(i)}: ${typeString(v.dtype, v.shape)} (captured constant)` });
      } else if (producer.has(i)) link(producer.get(i), id, name(i));
    };
    nodesInOrder.forEach(({ node, group }, idx) => {
      const id = `${prefix}n${idx}`;
      const outs = node.outputs.map(name);
      const lhs = outs.length > 3 ? `${outs.slice(0, 2).join(', ')}, … (${outs.length})` : outs.join(', ');
      const lines = [`${lhs ? `${lhs} = ` : ''}${node.prim.name}`];
      const types = node.outputs.map((o) => typeString(graph.values[o].dtype, graph.values[o].shape)).join(', ');
      if (types) lines.push(short(types, 40));
      const more = detail(node);
      if (more) lines.push(short(more, 40));
      const bodies = bodiesOf(node);
      const chips = [];
      for (const i of node.inputs) wire(i, id, chips);
      const entry = { id, kind: 'op', op: node.prim.name, lines, title: `${lines[0]}  (${node.inputs.map(name).join(', ')})`, chips, stateful: group ? false : stateful.get(node) === true };
      if (bodies.length) {
        entry.bodies = bodies.map((b) => ({ role: b.role, model: fromGraph(b.graph, { ...opts, prefix: `${id}.${b.role}.` }) }));
      }
      if (group) {
        entry.group = group.id;
        group.members.push(id);
      }
      nodes.push(entry);
      node.outputs.forEach((o) => producer.set(o, id));
    });
    graph.outputs.forEach((o, pos) => {
      const id = `${prefix}out${pos}`;
      const v = graph.values[o];
      const chips = [];
      nodes.push({ id, kind: 'output', position: pos, lines: [`return[${pos}]`, `${name(o)}: ${typeString(v.dtype, v.shape)}`], title: `returned value ${pos}: ${name(o)}`, chips });
      wire(o, id, chips);
    });
    return { name: graph.name || 'graph', nodes, edges, groups, counts: { ops: nodesInOrder.length, inputs: graph.inputs.length, outputs: graph.outputs.length, constants } };
  }

  const looksConstant = (name) => /^[-\d[(.]|^(true|false|True|False)$|^'/.test(name);

  /** Hand-written `{ name, type, inputs, outputs, stateful? }` records: outputs are the results nothing reads. */
  function fromOperations(ops) {
    const producer = new Map();
    ops.forEach((op, i) => op.outputs.forEach((o) => producer.set(o, `n${i}`)));
    const nodes = [];
    const edges = [];
    const inputs = new Map();
    const read = new Set();
    let constants = 0;
    ops.forEach((op, i) => {
      const chips = [];
      for (const name of op.inputs) {
        read.add(name);
        if (producer.has(name)) edges.push({ id: `e${edges.length}`, source: producer.get(name), target: `n${i}`, values: [name] });
        else if (looksConstant(name)) {
          constants++;
          chips.push({ text: name, title: `${name} (constant)` });
        } else {
          if (!inputs.has(name)) {
            inputs.set(name, `in${inputs.size}`);
            nodes.push({ id: inputs.get(name), kind: 'input', lines: [name], title: `input ${name}`, chips: [] });
          }
          edges.push({ id: `e${edges.length}`, source: inputs.get(name), target: `n${i}`, values: [name] });
        }
      }
      const lhs = op.outputs.join(', ');
      nodes.push({ id: `n${i}`, kind: 'op', op: op.type, lines: [`${lhs ? `${lhs} = ` : ''}${op.type}`], title: op.name, chips, stateful: Boolean(op.stateful) });
    });
    let pos = 0;
    ops.forEach((op, i) => {
      for (const o of op.outputs) {
        if (read.has(o)) continue;
        nodes.push({ id: `out${pos}`, kind: 'output', position: pos, lines: [`return[${pos}]`, o], title: `unread result ${o}`, chips: [] });
        edges.push({ id: `e${edges.length}`, source: `n${i}`, target: `out${pos++}`, values: [o] });
      }
    });
    return { name: 'operations', nodes, edges, groups: [], counts: { ops: ops.length, inputs: inputs.size, outputs: pos, constants } };
  }

  /**
   * The model to draw: a ConcreteFunction or LoadedFunction (its graph, or with `optimized` the graph
   * the executor runs, fused groups framed), a Graph, or an array of operation records. `opts.read`
   * reads a captured constant's values (ef.internal.backend.readInfoSync; default: its dataSync()).
   */
  function graphModel(x, opts = {}) {
    if (Array.isArray(x)) return fromOperations(x);
    // A ConcreteFunction is callable (cf(x), as in TF), so it may be a function object.
    if (x && (typeof x === 'object' || typeof x === 'function') && isGraph(x.graph)) {
      const g = opts.optimized && x.plan && isGraph(x.plan.graph) ? x.plan.graph : x.graph;
      return fromGraph(g, opts);
    }
    if (isGraph(x)) return fromGraph(x, opts);
    if (typeof x === 'function' && typeof x.getConcreteFunction === 'function') {
      throw new TypeError('drawGraph: got a traced function; pass one of its concrete functions, e.g. drawGraph(f.getConcreteFunction(x)).');
    }
    throw new TypeError(`drawGraph: expected a graph with \`operations\`, a ConcreteFunction or an array of { name, type, inputs, outputs } (got ${x === null ? 'null' : typeof x}).`);
  }

  const api = { graphModel, typeString };
  root.efGraphModel = api;
  if (typeof module === 'object' && module.exports) module.exports = api;
})(typeof window !== 'undefined' ? window : globalThis);
