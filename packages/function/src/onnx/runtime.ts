// The ONNX Runtime seam: onnxruntime-node loaded lazily (no static import), sessions built synchronously through its native binding.
import { DType, FailedPreconditionError, internalError, opError, unimplemented } from '@eagerflow/core';

/** The parts of onnxruntime-common's Tensor a compiled call uses. */
export interface OrtTensor {
  readonly data: Float32Array | Int32Array | Uint8Array | BigInt64Array;
  readonly dims: readonly number[];
  readonly type: string;
}

/**
 * The tensor class handed to the native binding (it builds outputs with it): plain fields, no realm
 * checks, so typed arrays from any realm (Jest's sandboxes, workers) pass both ways without copies.
 */
class HostTensor implements OrtTensor {
  constructor(
    readonly type: string,
    readonly data: Float32Array | Int32Array | Uint8Array | BigInt64Array,
    readonly dims: readonly number[],
  ) {}

  readonly location = 'cpu';

  get size(): number {
    return this.data.length;
  }
}

interface NativeSession {
  loadModel(buffer: ArrayBuffer, byteOffset: number, byteLength: number, options: object): void;
  run(feeds: Record<string, OrtTensor>, fetches: Record<string, null>, options: object): Record<string, OrtTensor>;
  readonly outputMetadata: { name: string }[];
  dispose(): void;
}

interface Binding {
  binding: { InferenceSession: new () => NativeSession; initOrtOnce(logLevel: number, tensor: unknown, isMainThread: boolean): void };
}

let loaded: { binding: Binding } | null = null;

function nodeRequire(): (id: string) => unknown {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown; cwd(): string } }).process;
  if (typeof require === 'function') return require;
  const get = proc?.getBuiltinModule;
  if (proc === undefined || typeof get !== 'function') throw opError(FailedPreconditionError, 'onnx', 'no Node.js require here', 'an environment without process.getBuiltinModule', 'Node.js >= 20.19', 'Run jitCompile under Node.js');
  const mod = get.call(proc, 'node:module') as { createRequire(path: string): (id: string) => unknown };
  return mod.createRequire(`${proc.cwd()}/`);
}

/** onnxruntime-node and its synchronous native binding, or an UnimplementedError saying how to get it. */
export function ortNode(op: string): { binding: Binding } {
  if (loaded !== null) return loaded;
  try {
    const binding = nodeRequire()('onnxruntime-node/dist/binding') as Binding;
    // Log level 3 (errors only); the worker-thread flag is the binding's own question.
    binding.binding.initOrtOnce(3, HostTensor, true);
    loaded = { binding };
    return loaded;
  } catch (e) {
    throw unimplemented(
      op,
      'jitCompile needs the onnxruntime-node package',
      `it could not be loaded: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      'onnxruntime-node installed beside EagerFlow',
      'Install it (`npm install onnxruntime-node`; its CPU binaries ship inside the package), or trace without jitCompile.',
    );
  }
}

/** Intra-op threads: the machine's cores (os.availableParallelism). */
function cores(): number {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const os = proc?.getBuiltinModule?.call(proc, 'node:os') as { availableParallelism?: () => number; cpus(): unknown[] } | undefined;
  return os?.availableParallelism?.() ?? os?.cpus().length ?? 1;
}

/**
 * How long, in microseconds, an idle pool thread of a heavy session spins after its work before it sleeps (ONNX Runtime's
 * `session.intra_op.spin_duration_us`). Within one run the pool thread is handed short parallel ops back to back, and a
 * train step's next call comes within this window, so both keep a spinning thread. Unbounded (ONNX Runtime's default),
 * the pool thread spun ~40 ms of every 100 ms idle wait after a matmul 256, taking the core that another session or the
 * JavaScript between calls needed: with a compiled conv2d and a raw session of the same model alternating over their
 * first 100 calls, CPU per call was 4,790 us unbounded and 2,644 us with 500 us, at the same wall time; the compiled
 * matmul 256's spread against its raw session went from 0.78-1.58x to 0.89-1.17x (bench/cold_call.bench.js). The train
 * steps read the same or faster (MLP 1,244-1,260 us against 1,457-1,484 us unbounded, bench/train_steps.bench.js).
 */
export const SPIN_DURATION_US = 500;

/**
 * Session options: intra-op threads = cores for heavy models (one thread for light ones: a 48-op
 * elementwise chain on [256] ran 43 us on one thread, 50 us on two). Light sessions have no pool threads, so nothing
 * spins: idle spinning threads of many live tiny sessions once starved the machine (81 tiny sessions: 9.5 s with
 * spinning, 2.0 s without). Heavy ones let their pool thread spin between the many short parallel ops of a train step,
 * as TF's Eigen pool does: woken from sleep each time, the MLP step took 1,937 us, spinning 1,388 us (attention 876 ->
 * 612 us, conv 898 -> 851 us; bench/train_steps.bench.js, quiet machine); for at most SPIN_DURATION_US once idle.
 * Exported for the benches, whose raw onnxruntime-node sessions use the same options.
 */
export function sessionOptions(threads: number): { intraOpNumThreads: number; interOpNumThreads: number; graphOptimizationLevel: 'all'; logSeverityLevel: 4; extra: { session: { intra_op: Record<string, string> } } } {
  const intraOp: Record<string, string> = threads > 1 ? { allow_spinning: '1', spin_duration_us: String(SPIN_DURATION_US) } : { allow_spinning: '0' };
  // Log severity 4 (fatal only): a run ONNX Runtime refuses comes back as the thrown error (the segment replays it for
  // the uncompiled error, onnx/segment.ts), where ONNX Runtime would also print its own error line to stderr.
  return { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 4, extra: { session: { intra_op: intraOp } } };
}

/** A built session: runs synchronously on ORT tensors. */
export class Session {
  private readonly native: NativeSession;
  private readonly fetches: Record<string, null>;

  constructor(
    /** The ModelProto bytes: ONNX Runtime copies them, so the session keeps no reference (a model's weights would stay twice). */
    model: Uint8Array,
    readonly outputNames: readonly string[],
    what: string,
    /** Whether the model does enough work per call for intra-op threads to pay (else one thread). */
    heavy = true,
  ) {
    const { binding } = ortNode(what);
    this.native = new binding.binding.InferenceSession();
    try {
      this.native.loadModel(model.buffer as ArrayBuffer, model.byteOffset, model.byteLength, sessionOptions(heavy ? cores() : 1));
    } catch (e) {
      throw internalError(what, `ONNX Runtime could not build a session for the lowered graph (${e instanceof Error ? e.message : String(e)}); trace without jitCompile, and report the graph listing (f.experimentalGetCompilerIr())`);
    }
    this.fetches = Object.fromEntries(outputNames.map((n) => [n, null]));
  }

  run(feeds: Record<string, OrtTensor>): Record<string, OrtTensor> {
    return this.native.run(feeds, this.fetches, {});
  }

  dispose(): void {
    this.native.dispose();
  }
}

/** ONNX Runtime's tensor type names of the dtypes compiled segments pass. */
export const ORT_TYPE: Record<string, string> = { float32: 'float32', int32: 'int32', bool: 'bool' };

/** An ORT tensor over host data (no copy: ORT reads the typed array in place). */
export function ortTensor(dtype: DType, data: Float32Array | Int32Array | Uint8Array, dims: readonly number[]): OrtTensor {
  return new HostTensor(ORT_TYPE[dtype], data, dims);
}
