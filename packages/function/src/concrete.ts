// ConcreteFunction: one traced graph with its signature; calls run the plan (or replay under tapes).
import { DType, FailedPreconditionError, Tensor, TensorShape, TensorSpec, Variable, backend, constant, describe, flattenStructure, opError, packStructure, typeError } from '@eagerflow/core';
import type { GraphDef } from '@eagerflow/core';
import { Graph, Value, releaseConstants } from './graph';
import { Plan, compile, planOf, run, runAsync } from './executor';
import { replay } from './replay';
import { VariableSlot, withVariables, withVariablesAsync } from './variable_slots';
import { flattenArgs } from './args';
import { JitMode, disposeSessions, segmentGraph } from './onnx/segment';
import { disposeBackward, tapedCompiledCall } from './onnx/tape';
import { ortIsAsync } from './onnx/runtime_web';
import { TensorClass, adoptInfo, callCtx } from './core_bindings';

const isTensorLeaf = (x: unknown): boolean => x instanceof Tensor;

let graphDefWriter: ((cf: ConcreteFunction) => GraphDef) | null = null;

/** Installs @eagerflow/saving's GraphDef writer behind ConcreteFunction.toGraphDef (its installSaving() does; the umbrella calls that). */
export function installGraphDefWriter(write: (cf: ConcreteFunction) => GraphDef): void {
  graphDefWriter = write;
}

/** How outputs map back to the user's structure: tensor leaves come from the graph. */
export interface OutputTemplate {
  /** The structure with symbolic tensors as leaves. */
  readonly structured: unknown;
  /** Output dtypes in leaf order. */
  readonly dtypes: DType[];
  /** Which outputs are weakly typed (made from JS numbers alone): calls give weak tensors there too. */
  readonly weak?: boolean[];
}

/**
 * What an eager call of a concrete function reads, in one plain object made once. The callable ConcreteFunction is a
 * function object whose own `name` and `length` were deleted, which puts its properties in dictionary mode: every
 * `this.x` on it is a lookup by name, and the call path would make a dozen per call.
 */
export interface CallState {
  readonly cf: ConcreteFunction;
  readonly plan: Plan;
  /** The API name in input errors (a disposed or symbolic tensor). */
  readonly api: string;
  readonly dtypes: readonly DType[];
  /** Which outputs are weak; null when none is. */
  readonly weak: readonly boolean[] | null;
  /** The structured result with symbolic tensor leaves (template.structured). */
  readonly structured: unknown;
  /** 0: no tensor outputs (the structure is returned as is), 1: one tensor that is the whole result, 2: a structure to pack. */
  readonly outputKind: 0 | 1 | 2;
  /**
   * No variable slots, and not compiled or compiled for synchronous ONNX Runtime (Node): an eager call without tapes
   * runs `plan` on the inputs directly (what callFlat's execute does then too).
   */
  readonly direct: boolean;
}

const NO_VARIABLES: readonly Variable[] = Object.freeze([]);

/**
 * `cf.callFlat(tensors, [])` for flat tensor arguments (a traced function's repeat call). Outside traces and tapes,
 * a function without variable slots (compiled or not, see CallState.direct) runs its plan here directly, with the same
 * checks as callFlat (a disposed or symbolic input is an error naming it).
 */
export function callTensors(st: CallState, tensors: readonly Tensor[]): unknown {
  if (!st.direct || callCtx.builder !== null || callCtx.tapes.length !== 0) return st.cf.callFlat(tensors, NO_VARIABLES);
  const n = tensors.length;
  const infos = new Array<backend.Info>(n);
  for (let i = 0; i < n; i++) {
    const tf = tensors[i]._tf;
    infos[i] = tf !== null && !tf.isDisposed ? tf : tensors[i].concrete(st.api);
  }
  const res = run(st.plan, infos);
  const dtypes = st.dtypes;
  const weak = st.weak;
  if (st.outputKind === 1) {
    const t = new TensorClass(adoptInfo(res[0]), dtypes[0]);
    if (weak !== null && weak[0]) t.weak = true;
    return t;
  }
  const outs = new Array<Tensor>(res.length);
  for (let i = 0; i < res.length; i++) {
    outs[i] = new TensorClass(adoptInfo(res[i]), dtypes[i]);
    if (weak !== null && weak[i]) outs[i].weak = true;
  }
  return packOutputs(st.structured, outs, st.outputKind);
}

/** The structured result from the output tensors. */
function packOutputs(structured: unknown, outs: Tensor[], kind: 0 | 1 | 2): unknown {
  if (kind === 0) return structured;
  if (kind === 1) return outs[0];
  return packStructure(structured, substitute(structured, outs), isTensorLeaf);
}

const registry = typeof FinalizationRegistry !== 'undefined' ? new FinalizationRegistry<Value[]>(releaseConstants) : null;

/**
 * A traced graph specialised to one input signature.
 * @example
 * const f = ef.trace((x) => ef.multiply(x, 2));
 * const cf = f.getConcreteFunction(new ef.TensorSpec([null], 'float32'));
 * cf.call(ef.constant([1, 2])).arraySync(); // [2, 4]
 */
export class ConcreteFunction {
  readonly plan!: Plan;
  /** Symbolic placeholders, one per tensor input (static shapes). */
  readonly inputs!: Tensor[];
  /** Symbolic outputs with their static shapes. */
  readonly outputs!: Tensor[];
  readonly inputSignature!: TensorSpec[];
  readonly graph!: Graph;
  readonly template!: OutputTemplate;
  readonly slots!: readonly VariableSlot[];
  readonly key!: string;
  readonly names!: readonly string[];
  readonly jitCompile!: JitMode;
  /** How many arguments the trace was called with: a call with more is a TypeError, as in TF. */
  readonly arity!: number;
  /** The API name errors about this function's arguments give. */
  private readonly api!: string;
  /** What eager calls read (see CallState). */
  readonly callState!: CallState;

  /** A ConcreteFunction is callable, as TF's: `cf(x)` is `cf.call(x)`. */
  constructor(graph: Graph, inputs: Tensor[], template: OutputTemplate, slots: readonly VariableSlot[], key: string, names: readonly string[], jitCompile: JitMode = false, arity = Infinity) {
    const self = ((...args: unknown[]) => self.call(...args)) as unknown as ConcreteFunction;
    // The arrow's own name and length would hide the class's `name` getter.
    delete (self as { name?: unknown }).name;
    delete (self as { length?: unknown }).length;
    Object.setPrototypeOf(self, new.target.prototype);
    const plan = compile(jitCompile === false ? graph : segmentGraph(graph, jitCompile));
    const api = `ConcreteFunction ${graph.name}`;
    const outputs = flattenStructure<Tensor>(template.structured, isTensorLeaf).filter(isTensorLeaf);
    const callState: CallState = {
      cf: self, plan, api, dtypes: template.dtypes, structured: template.structured,
      weak: template.weak !== undefined && template.weak.some((w) => w) ? template.weak : null,
      outputKind: outputs.length === 0 ? 0 : template.structured instanceof Tensor ? 1 : 2,
      direct: slots.length === 0 && (jitCompile === false || !ortIsAsync()),
    };
    Object.assign(self, {
      graph, template, slots, key, names, jitCompile, arity, plan, inputs, api, outputs, callState,
      inputSignature: inputs.map((t) => new TensorSpec(t.shape.dims, t.dtype, t._sym?.label)),
    });
    // Hold only the constants to unpin (bodies' included): holding the graph itself would keep its
    // host callbacks alive, and with them any closure of theirs that refers back to this function.
    registry?.register(self, graph.constants(), self);
    return self;
  }

  get structuredOutputs(): unknown {
    return this.template.structured;
  }

  get name(): string {
    return this.graph.name;
  }

  /** Calls with the original argument structure (tensors where the trace had tensors). */
  call(...args: unknown[]): unknown {
    if (args.length > this.arity) {
      throw typeError(`ConcreteFunction ${this.name}`, `takes ${this.arity} positional argument${this.arity === 1 ? '' : 's'} but ${args.length} were given`, `${args.length} arguments`, `at most ${this.arity}`, 'Pass the arguments the function was traced with; trace another concrete function for other ones.');
    }
    const flat = flattenArgs(args, this.names);
    if (flat.tensors.length !== this.inputs.length) {
      throw typeError(`ConcreteFunction ${this.name}`, 'wrong number of tensor arguments', String(flat.tensors.length), `${this.inputs.length} matching ${this.inputSignature.map(String).join(', ')}`, 'Pass one tensor per input of the signature.');
    }
    const tensors: Tensor[] = [];
    const temps: Tensor[] = [];
    flat.tensors.forEach((leaf, i) => {
      const want = this.inputs[i];
      if (leaf.value === null) throw typeError(`ConcreteFunction ${this.name}`, `argument ${leaf.path} is a TensorSpec`, 'a spec', 'a value', 'Call a concrete function with tensors.');
      if (leaf.dtype !== want.dtype) {
        throw typeError(`ConcreteFunction ${this.name}`, `argument ${leaf.path} has dtype ${leaf.dtype}`, leaf.dtype, want.dtype, 'Cast it, or trace another concrete function.');
      }
      // The graph (and its fused loops) trust the traced input shapes: a call must match them.
      if (!this.inputSignature[i].shape.isCompatibleWith(leaf.shape)) {
        throw typeError(`ConcreteFunction ${this.name}`, `argument ${leaf.path} has shape ${new TensorShape(leaf.shape).toString()}`, new TensorShape(leaf.shape).toString(), `a shape compatible with ${this.inputSignature[i].shape.toString()}`, 'Reshape it, or trace another concrete function.');
      }
      const t = leaf.value instanceof Tensor ? leaf.value : backend.isTfTensor(leaf.value) ? Tensor.fromTf(leaf.value) : fromNd(leaf.value, temps);
      tensors.push(t);
    });
    try {
      return this.callFlat(tensors, distinct(flat.variables));
    } finally {
      temps.forEach((t) => t.dispose());
    }
  }

  /** Runs the graph on flat tensor inputs and distinct variables; packs the structured result. */
  callFlat(tensors: readonly Tensor[], vars: readonly Variable[]): unknown {
    const st = this.callState;
    if (st.direct && callCtx.builder === null && callCtx.tapes.length === 0) return callTensors(st, tensors);
    const outs = this.slots.length === 0 ? this.execute(tensors) : withVariables(this.slots, vars, () => this.execute(tensors));
    return this.pack(outs);
  }

  async callFlatAsync(tensors: readonly Tensor[], vars: readonly Variable[]): Promise<unknown> {
    if (callCtx.builder !== null || callCtx.tapes.length !== 0) return this.callFlat(tensors, vars);
    const infos = await withVariablesAsync(this.slots, vars, () => runAsync(this.plan, this.concreteInputs(tensors)));
    return this.pack(this.adopt(infos));
  }

  private concreteInputs(tensors: readonly Tensor[]): backend.Info[] {
    const infos = new Array<backend.Info>(tensors.length);
    for (let i = 0; i < tensors.length; i++) infos[i] = tensors[i].concrete(this.api);
    return infos;
  }

  /**
   * The plan synchronous calls run: the compiled one, except where ONNX Runtime is asynchronous (onnxruntime-web
   * in the browser): there `f(x)` runs the uncompiled graph (same results) and `await f.callAsync(x)` the compiled one.
   */
  private syncPlan(): Plan {
    return this.jitCompile !== false && ortIsAsync() ? planOf(this.graph) : this.plan;
  }

  private execute(tensors: readonly Tensor[]): Tensor[] {
    if (this.jitCompile !== false && callCtx.builder === null && callCtx.tapes.length !== 0 && !ortIsAsync()) {
      // Eager tapes see a compiled call as one node whose vjp is the compiled backward function.
      const outs = tapedCompiledCall(this, tensors);
      if (outs !== null) return outs;
    }
    if (callCtx.builder !== null || callCtx.tapes.length !== 0) return replay(this.graph, tensors.slice());
    return this.adopt(run(this.syncPlan(), this.concreteInputs(tensors)));
  }

  /** The compiled plan on concrete inputs (no tape sees inside). */
  runCompiled(tensors: readonly Tensor[]): Tensor[] {
    return this.adopt(run(this.plan, this.concreteInputs(tensors)));
  }

  private adopt(infos: backend.Info[]): Tensor[] {
    const dtypes = this.template.dtypes;
    const weak = this.template.weak;
    const out = new Array<Tensor>(infos.length);
    for (let i = 0; i < infos.length; i++) {
      out[i] = new TensorClass(adoptInfo(infos[i]), dtypes[i]);
      if (weak !== undefined && weak[i]) out[i].weak = true;
    }
    return out;
  }

  private pack(outs: Tensor[]): unknown {
    // A function returning one tensor: the output is the whole structure.
    return packOutputs(this.template.structured, outs, this.callState.outputKind);
  }

  /**
   * The graph as TensorFlow GraphDef JSON (tfjs model.json `modelTopology`); ef.saveFunction adds weights.
   * @example
   * const cf = ef.trace((x) => ef.exp(x)).getConcreteFunction(new ef.TensorSpec([2]));
   * cf.toGraphDef().node.map((n) => n.op); // ["Placeholder", "Exp", "Identity"]
   */
  toGraphDef(): GraphDef {
    if (graphDefWriter === null) {
      throw opError(
        FailedPreconditionError, 'ConcreteFunction.toGraphDef', 'no GraphDef writer is installed', 'a program that did not install @eagerflow/saving',
        'its writer installed', "Import 'eagerflow' (it installs it), or call installSaving() from '@eagerflow/saving' once",
      );
    }
    return graphDefWriter(this);
  }

  /**
   * The graph as it runs: with jitCompile, onnx_segment nodes list the ops each ONNX Runtime session runs;
   * the other nodes are JS steps.
   */
  experimentalGetCompilerIr(): string {
    return this.plan.graph.toString();
  }

  toString(): string {
    return this.graph.toString();
  }

  /** Releases the graph's captured constants now (otherwise when garbage collected). */
  dispose(): void {
    registry?.unregister(this);
    if (this.jitCompile !== false) {
      disposeSessions(this.plan.graph);
      disposeBackward(this.graph);
    }
    this.graph.dispose();
  }
}

/** Leaves for packStructure: graph outputs for tensor leaves, other leaves unchanged. */
function substitute(structured: unknown, outs: Tensor[]): unknown[] {
  let k = 0;
  return flattenStructure<unknown>(structured, (x) => x instanceof Tensor).map((leaf) => (leaf instanceof Tensor ? outs[k++] : leaf));
}

function distinct(vars: readonly Variable[]): Variable[] {
  return vars.filter((v, i) => vars.indexOf(v) === i);
}

function fromNd(value: unknown, temps: Tensor[]): Tensor {
  if (value === null || typeof value !== 'object') throw typeError('ConcreteFunction', `cannot convert ${describe(value)} to a tensor`, describe(value), 'a tensor-like value', 'Pass tensors, numbers or nested arrays.');
  const t = constant(value as Parameters<typeof constant>[0]);
  temps.push(t);
  return t;
}

/** A ConcreteFunction is callable (`cf(x)`, TF's form) as well as `cf.call(x)`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface ConcreteFunction {
  (...args: unknown[]): unknown;
}
