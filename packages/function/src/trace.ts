// ef.trace: the tracing function compiler (tf.function): cache, retracing rules, decorators.
import { setBackwardTracer } from './onnx/tape';
import { DType, Tensor, TensorShape, TensorSpec, Variable, backend, constant, ctx, flattenStructure, mapStructure, packStructure, tidy, variableHooks, typeError } from '@eagerflow/core';
import { GraphBuilder, withBuilder } from './builder';
import { CallState, ConcreteFunction, callTensors } from './concrete';
import { Graph } from './graph';
import { optimize } from './passes';
import { FlatArgs, checkAgainstSignature, conformToSignature, flattenArgs, flattenSignature, parameterNames, rebuildArgs } from './args';
import { VariableSlot } from './variable_slots';
import { RetraceDetector, retraceConfig } from './retrace_warning';
import { functionsRunEagerly, runEagerly } from './run_eagerly';
import { TensorClass, callCtx } from './core_bindings';

export interface TraceOptions {
  /** Fixes the inputs: one trace ever; compatible inputs are converted. */
  inputSignature?: unknown[] | null;
  /** Relax shapes to the most specific common shape instead of retracing per shape. */
  reduceRetracing?: boolean;
  name?: string;
  /**
   * Lowers each concrete function to ONNX and runs it on ONNX Runtime (API section 15): `true` splits
   * around ops without a lowering (JS steps), `'strict'` refuses them with an UnimplementedError.
   */
  jitCompile?: boolean | 'strict';
}

type AnyFn = (...args: never[]) => unknown;

/** What one trace recorded: the structured result, its tensor leaves and the optimized graph. */
interface Recorded {
  structured: unknown;
  leaves: Tensor[];
  graph: Graph;
}

/** A callable traced function. */
export interface TracedFunction<F extends AnyFn = AnyFn> {
  (...args: Parameters<F>): ReturnType<F>;
  readonly tracingCount: number;
  readonly name: string;
  readonly pythonFunction: F;
  readonly inputSignature: unknown[] | null;
  getConcreteFunction(...args: unknown[]): ConcreteFunction;
  callAsync(...args: Parameters<F>): Promise<Awaited<ReturnType<F>>>;
  /** Frees every concrete function's captured constants. */
  dispose(): void;
}

/** Functions currently being traced (variable-creation checks). */
const tracing: Tracer[] = [];

/**
 * Wires the tracer into core's Variable: creation inside a trace is checked by the traced function,
 * and a symbolic initial value that needs no graph input is evaluated (TensorFlow's init_scope).
 * The package's index calls it once, in its visible wiring list.
 */
export function installVariableHooks(): void {
  variableHooks.onCreate = () => {
    const t = tracing[tracing.length - 1];
    if (t !== undefined && ctx.builder !== null) t.onVariableCreated();
  };
  variableHooks.lift = (t: Tensor) => (ctx.builder instanceof GraphBuilder ? ctx.builder.evaluate(t) : null);
}

/** Per-function (per-instance for methods) trace cache and tracing logic. */
export class Tracer {
  readonly cache = new Map<string, ConcreteFunction>();
  /** reduceRetracing: concrete functions grouped by shape-less key. */
  private readonly relaxed = new Map<string, ConcreteFunction[]>();
  count = 0;
  private readonly names: string[];
  private readonly signature: unknown[] | null;
  private readonly detector: RetraceDetector;

  constructor(
    readonly fn: AnyFn,
    readonly thisArg: unknown,
    readonly options: TraceOptions,
    readonly name: string,
  ) {
    this.names = parameterNames(fn);
    this.signature = options.inputSignature ?? null;
    if (this.signature !== null) flattenSignature(this.signature, `ef.trace(${name})`);
    this.detector = RetraceDetector.for(fn, name);
  }

  /** Variables the body created so far (a first trace that creates some is traced again to check). */
  private created = 0;
  /** True during that second, checking trace. */
  private checking = false;

  onVariableCreated(): void {
    if (this.count > 0 || this.checking) {
      const what = this.checking ? 'a new Variable on every call (the second trace of the first call created one again)' : `a new Variable on trace #${this.count + 1}`;
      throw typeError(
        `ef.trace(${this.name})`, 'tf.function only supports singleton Variables created on the first call; creating variables on a non-first call to a traced function is not allowed', what,
        'variables only on the first trace', 'Make sure the Variable is only created once or created outside the function: `if (!this.v) this.v = new ef.Variable(...)`.',
      );
    }
    this.created++;
  }

  /**
   * Finds or traces the concrete function for these arguments. `forCall`: the arguments are values
   * to run on (TensorSpecs are an error); otherwise (getConcreteFunction) specs are allowed.
   */
  concreteFor(args: readonly unknown[], forCall = true): { cf: ConcreteFunction; flat: FlatArgs; temps: Tensor[] } {
    if (this.signature !== null) return this.concreteForSignature(this.signature, args, forCall);
    const flat = flattenArgs(args, this.names);
    if (forCall) {
      const spec = flat.tensors.find((leaf) => leaf.value === null);
      if (spec !== undefined) {
        throw typeError(`ef.trace(${this.name})`, `argument '${spec.path}' is a TensorSpec`, 'a TensorSpec', 'a value to run on', 'Pass specs to f.getConcreteFunction(...), and tensors to f(...).');
      }
    }
    const hit = this.cache.get(flat.key) ?? this.findRelaxed(flat);
    if (hit) return { cf: hit, flat, temps: [] };
    return { cf: this.traceNew(args, this.relax(flat), flat.key), flat, temps: [] };
  }

  /** With an inputSignature: one concrete function; values are converted (and checked) to the signature. */
  private concreteForSignature(sig: unknown[], args: readonly unknown[], forCall: boolean): { cf: ConcreteFunction; flat: FlatArgs; temps: Tensor[] } {
    const api = `ef.trace(${this.name})`;
    const sigFlat = flattenArgs(sig, this.names);
    let flat = sigFlat;
    let temps: Tensor[] = [];
    const given = forCall ? null : flattenArgs(args, this.names);
    if (given !== null && (args.length === 0 || given.tensors.some((leaf) => leaf.value === null))) {
      if (args.length > 0) checkAgainstSignature(api, sig, given, sigFlat);
    } else {
      const conv = conformToSignature(api, sig, args, this.names);
      temps = conv.temps;
      flat = flattenArgs(rebuildArgs(sig, conv.values, []), this.names);
    }
    try {
      const cf = this.cache.get(sigFlat.key) ?? this.traceNew(sig, sigFlat, sigFlat.key);
      return { cf, flat, temps };
    } catch (e) {
      temps.forEach((t) => t.dispose());
      throw e;
    }
  }

  private findRelaxed(flat: FlatArgs): ConcreteFunction | undefined {
    if (!this.options.reduceRetracing) return undefined;
    const group = this.relaxed.get(flat.shapeless) ?? [];
    return group.find((cf) => cf.inputs.every((t, i) => t.shape.isCompatibleWith(flat.tensors[i].shape)));
  }

  /** reduceRetracing: the most specific common shape of this call and earlier ones. */
  private relax(flat: FlatArgs): FlatArgs {
    if (!this.options.reduceRetracing) return flat;
    const group = this.relaxed.get(flat.shapeless);
    if (!group || group.length === 0) return flat;
    const prev = group[group.length - 1];
    const tensors = flat.tensors.map((leaf, i) => ({ ...leaf, shape: prev.inputs[i].shape.mostSpecificCommonSupertype(new TensorShape(leaf.shape)).dims }));
    return { ...flat, tensors };
  }

  private traceNew(args: readonly unknown[], flat: FlatArgs, key: string): ConcreteFunction {
    const createdBefore = this.created;
    const { recorded, builder, placeholders, slots } = this.traceOnce(args, flat);
    if (this.count === 0 && this.created > createdBefore) {
      // TensorFlow traces a function that created variables a second time and raises if that trace
      // creates variables again: a variable made on every call is refused on the first call, not later.
      this.checking = true;
      try {
        this.traceOnce(args, flat).recorded.graph.dispose();
      } catch (e) {
        recorded.graph.dispose();
        throw e;
      } finally {
        this.checking = false;
      }
    }
    const { structured, leaves, graph } = recorded as Recorded;
    const outTemplate = { structured: reSymbol(structured, graph, builder), dtypes: leaves.map((t) => t.dtype), weak: leaves.map((t) => t.weak) };
    const cf = new ConcreteFunction(graph, placeholders, outTemplate, slots, key, this.names, this.options.jitCompile ?? false, args.length);
    this.count++;
    this.cache.set(key, cf);
    if (this.options.reduceRetracing) {
      const group = this.relaxed.get(flat.shapeless) ?? [];
      group.push(cf);
      this.relaxed.set(flat.shapeless, group);
    }
    return cf;
  }

  /** One run of the body under a fresh builder (the graph, its placeholders and variable slots). */
  private traceOnce(args: readonly unknown[], flat: FlatArgs): { recorded: Recorded; builder: GraphBuilder; placeholders: Tensor[]; slots: VariableSlot[] } {
    const builder = new GraphBuilder(this.name);
    const placeholders = flat.tensors.map((leaf) => {
      const p = builder.addInput(leaf.dtype, leaf.shape, inputName(leaf.name ?? leaf.path));
      if (leaf.weak === true) p.weak = true;
      return p;
    });
    const distinct = distinctVars(flat.variables);
    const slots = distinct.map((v, i) => new VariableSlot(i, v));
    const traceArgs = rebuildArgs(args, placeholders, flat.aliases.map((a) => slots[a].proxy));
    let recorded: Recorded | undefined;
    tracing.push(this);
    slots.forEach((s, i) => s.bind(distinct[i]));
    try {
      // Eager tensors the body creates (ef.constant, converted numbers) become graph constants, which
      // the graph pins: the scope frees their handles so tracing leaks nothing (like TF graph constants).
      tidy(() => {
        recorded = this.record(builder, traceArgs);
      });
    } catch (e) {
      // Constants the failed trace captured (its bodies' too) are released: they were pinned for the graph.
      builder.abandon();
      throw e;
    } finally {
      slots.forEach((s) => s.unbind());
      tracing.pop();
    }
    return { recorded: recorded as Recorded, builder, placeholders, slots };
  }

  /** Runs the body under the builder; returned variable arguments are read while their slots are bound. */
  private record(builder: GraphBuilder, traceArgs: unknown[]): Recorded {
    const result = withBuilder(builder, () => this.fn.apply(this.thisArg, traceArgs as never[]));
    if (result instanceof Promise) {
      // The refused Promise gets a handler: its later rejection must not end the process (unhandled).
      result.then(undefined, () => undefined);
      throw typeError(`ef.trace(${this.name})`, 'the function returned a Promise', 'an async function', 'a synchronous one', 'Trace the synchronous part; use callbacks (pyFunctionAsync + callAsync) for async host work.');
    }
    const structured = outputsToTensors(result, builder);
    const leaves = flattenStructure<unknown>(structured, isTensor).filter(isTensor);
    return { structured, leaves, graph: optimize(builder.finish(leaves)) };
  }

  /**
   * The concrete function of the last call whose arguments were all eager or symbolic ef.Tensors, with their dtypes,
   * weak flags and dims: a call with the same argument types has the same cache key (without an inputSignature) or
   * conforms to the signature unchanged (with a flat one: every argument a TensorSpec, so the tensors are fed as
   * given), so it skips flattening, conversion and the key lookup.
   */
  private last: LastCall | null = null;

  /** The last call's concrete function (its CallState) when these arguments have the same types and JS values; null otherwise. */
  private repeatCall(args: readonly unknown[]): CallState | null {
    const last = this.last;
    if (last === null || args.length !== last.values.length) return null;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      const value = last.values[i];
      if (value !== TENSOR_ARG) {
        // A JS value is keyed by value (flattenArgs: -0 apart from 0, NaN equal to NaN): Object.is is that equality.
        if (!Object.is(a, value)) return null;
        continue;
      }
      if (!(a instanceof TensorClass) || a.dtype !== last.dtypes[i] || a.weak !== last.weak[i]) return null;
      // An eager tensor's dims are its tfjs tensor's shape (read here without the getter).
      const d = a._tf !== null ? a._tf.shape : a.dims;
      const want = last.dims[i];
      if (d === null || d.length !== want.length) return null;
      for (let j = 0; j < d.length; j++) if (d[j] !== want[j]) return null;
    }
    return last.state;
  }

  private remember(args: readonly unknown[], cf: ConcreteFunction): void {
    // A nested signature rebuilds its arguments (arrays of tensors): only a flat one feeds the call's tensors as given.
    // Without a signature, top-level JS primitives may sit between the tensors (keyed by value, never fed).
    const flatSignature = this.signature === null || this.signature.every((s) => s instanceof TensorSpec);
    const tensor = (a: unknown): a is Tensor => a instanceof Tensor && a.dims !== null;
    const fits = flatSignature && args.every((a) => tensor(a) || (this.signature === null && isKeyedByValue(a)));
    if (!fits) {
      this.last = null;
      return;
    }
    const tensorAt = args.flatMap((a, i) => (tensor(a) ? [i] : []));
    this.last = {
      values: args.map((a) => (tensor(a) ? TENSOR_ARG : a)),
      dtypes: args.map((a) => (tensor(a) ? a.dtype : 'float32')),
      weak: args.map((a) => tensor(a) && a.weak === true),
      dims: args.map((a) => (tensor(a) ? (a.dims as (number | null)[]).slice() : [])),
      tensorAt: tensorAt.length === args.length ? null : tensorAt,
      state: cf.callState,
    };
  }

  call(args: readonly unknown[]): unknown {
    if (runEagerly.eager && callCtx.builder === null) return this.fn.apply(this.thisArg, args as never[]);
    const repeat = this.repeatCall(args);
    if (repeat !== null) {
      if (callCtx.builder === null && this.detector.idleWindow !== retraceConfig.window) this.detector.record(false);
      const at = (this.last as LastCall).tensorAt;
      return callTensors(repeat, at === null ? (args as readonly Tensor[]) : pick(args, at));
    }
    const before = this.count;
    const { cf, flat, temps } = this.concreteFor(args);
    if (ctx.builder === null) this.detector.record(this.count > before);
    this.remember(args, cf);
    try {
      return cf.callFlat(leafTensors(flat, temps), distinctVars(flat.variables));
    } finally {
      temps.forEach((t) => t.dispose());
    }
  }

  async callAsync(args: readonly unknown[]): Promise<unknown> {
    if (functionsRunEagerly() && ctx.builder === null) return (await this.fn.apply(this.thisArg, args as never[])) as unknown;
    const { cf, flat, temps } = this.concreteFor(args);
    try {
      return await cf.callFlatAsync(leafTensors(flat, temps), distinctVars(flat.variables));
    } finally {
      temps.forEach((t) => t.dispose());
    }
  }

  dispose(): void {
    this.last = null;
    for (const cf of this.cache.values()) cf.dispose();
    this.cache.clear();
    this.relaxed.clear();
  }
}

function distinctVars(vars: readonly Variable[]): Variable[] {
  return vars.filter((v, i) => vars.indexOf(v) === i);
}

/** Tensors to feed for a call's tensor leaves (NDArrays become temporary tensors). */
function leafTensors(flat: FlatArgs, temps: Tensor[]): Tensor[] {
  return flat.tensors.map((leaf) => {
    const v = leaf.value;
    if (v instanceof Tensor) return v;
    if (backend.isTfTensor(v)) return Tensor.fromTf(v);
    if (v === null) throw typeError('ef.trace', `argument ${leaf.path} is a TensorSpec`, 'a TensorSpec', 'a value', 'Call getConcreteFunction with specs, and the function with values.');
    const t = constant(v);
    temps.push(t);
    return t;
  });
}

const isTensor = (x: unknown): x is Tensor => x instanceof Tensor;

/** In LastCall.values: a tensor argument (its types are in dtypes, weak and dims). */
const TENSOR_ARG = Symbol('tensor argument');

/**
 * The last call's arguments, when each was a tensor (with known rank) or a JS primitive: a call with the same tensor
 * types and the same primitives has the same cache key, so it runs `state` without flattening or a key lookup.
 */
interface LastCall {
  /** Per argument: TENSOR_ARG, or the JS value itself. */
  readonly values: readonly unknown[];
  /** Per tensor argument (other positions unused): dtype, weak flag and dims. */
  readonly dtypes: readonly DType[];
  readonly weak: readonly boolean[];
  readonly dims: readonly (readonly (number | null)[])[];
  /** The positions of the tensor arguments, in order; null when every argument is one. */
  readonly tensorAt: readonly number[] | null;
  readonly state: CallState;
}

/** JS values flattenArgs keys by value alone (never fed to the graph). */
function isKeyedByValue(a: unknown): boolean {
  return a === null || a === undefined || typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean';
}

function pick(args: readonly unknown[], at: readonly number[]): Tensor[] {
  const out = new Array<Tensor>(at.length);
  for (let i = 0; i < at.length; i++) out[i] = args[at[i]] as Tensor;
  return out;
}

/** A graph input name from an argument path: `x`, `args_1_0`, `o_a`. */
function inputName(path: string): string {
  return path.replace(/[^\w]+/g, '_').replace(/_$/, '');
}

/** Output leaves: Variables are read; eager tensors become graph constants (by finish). */
function outputsToTensors(result: unknown, builder: GraphBuilder): unknown {
  const leaf = (x: unknown): unknown => {
    if (x instanceof Variable) return withBuilder(builder, () => x.value());
    if (backend.isTfTensor(x)) return Tensor.fromTf(x);
    // TF converts Python numbers, strings and booleans a tf.function returns to tensors (a JS number: float32).
    if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'string') return constant(x);
    return x;
  };
  // Iterative, in the function's own key order (variable reads keep their order); cycles are a TypeError.
  return mapStructure(result, (x) => x instanceof Variable || backend.isTfTensor(x) || x instanceof Tensor, leaf, 'ef.trace (the return value)', false);
}

/**
 * The user-visible structured outputs: symbolic tensors with the optimized graph's static shapes,
 * assigned in flattenStructure order (object keys sorted), the order of the graph's outputs.
 */
function reSymbol(structured: unknown, graph: Graph, builder: GraphBuilder): unknown {
  let k = 0;
  const leaves = flattenStructure<unknown>(structured, isTensor).map((x) => {
    if (!isTensor(x)) return x;
    const i = graph.outputs[k];
    const label = x._sym?.label ?? `output_${k}`;
    k++;
    const out = new Tensor(null, x.dtype, graph.values[i].shape, { owner: builder, index: i, label });
    out.weak = x.weak;
    return out;
  });
  return packStructure(structured, leaves, isTensor);
}

/** Builds the callable object around a Tracer. */
export function makeTraced<F extends AnyFn>(fn: F, options: TraceOptions, thisArg?: unknown): TracedFunction<F> {
  const name = options.name ?? (fn.name || 'traced');
  const tracer = new Tracer(fn, thisArg, options, name);
  const traced = function (this: unknown, ...args: unknown[]) {
    return tracer.call(args);
  } as unknown as TracedFunction<F>;
  Object.defineProperties(traced, {
    tracingCount: { get: () => tracer.count },
    name: { value: name },
    pythonFunction: { value: fn },
    inputSignature: { value: options.inputSignature ?? null },
    getConcreteFunction: {
      value: (...args: unknown[]) => {
        const { cf, temps } = tracer.concreteFor(args, false);
        temps.forEach((t) => t.dispose());
        return cf;
      },
    },
    callAsync: { value: (...args: unknown[]) => tracer.callAsync(args) },
    dispose: { value: () => tracer.dispose() },
    _tracer: { value: tracer },
  });
  return traced;
}

// Compiled functions' backward functions are traced functions too (onnx/tape.ts).
setBackwardTracer((fn, jit) => makeTraced(fn, { jitCompile: jit }));
