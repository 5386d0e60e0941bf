// The public saving API: ef.saveFunction, ef.saveFunctionToDir and ef.loadFunction.
import { Saveable, concreteOf, nodeFs } from '@eagerflow/function';
import { GraphDef, SignatureJson } from './format';
import { EagerFlowMetadata, writeConcrete } from './graphdef';
import { LoadOptions, LoadedFunction, loadArtifacts } from './loader';
import { ModelSource, isModelSource, readModel } from './graph_model';
import { WeightSpec } from './weights';
import { loadServingFunction } from './saved_model_loader';

/** Whether `src` is a local directory holding a SavedModel (saved_model.pb or .pbtxt). */
async function isSavedModelDir(src: string): Promise<boolean> {
  if (/^[a-z]+:\/\//i.test(src) && !src.startsWith('file://')) return false;
  const { fs, path } = nodeFs('loadFunction');
  const dir = src.startsWith('file://') ? src.slice(7) : src;
  for (const f of ['saved_model.pb', 'saved_model.pbtxt']) {
    try {
      await fs.stat(path.join(dir, f));
      return true;
    } catch {
      // not this one
    }
  }
  return false;
}
import type { SaveOptions } from './writer';

/** What ef.saveFunction returns: a tfjs `io.ModelArtifacts` (loadGraphModel(io.fromMemory(a)) runs it). */
export interface SavedFunctionArtifacts {
  modelTopology: GraphDef;
  format: 'graph-model';
  generatedBy: string;
  convertedBy: null;
  weightSpecs: WeightSpec[];
  weightData: ArrayBuffer;
  signature: SignatureJson;
  userDefinedMetadata: { eagerflow: EagerFlowMetadata };
}

const GENERATED_BY = 'EagerFlow 0.1.0';
const WEIGHTS_FILE = 'group1-shard1of1.bin';

/**
 * Saves a traced function as TensorFlow GraphDef JSON with its weights and signature.
 * @example
 * const f = ef.trace((x) => ef.relu(ef.multiply(x, 2)), { inputSignature: [new ef.TensorSpec([null])] });
 * const artifacts = ef.saveFunction(f);
 * artifacts.modelTopology.node.map((n) => n.op); // ["Placeholder", "Const", "Mul", "Relu", "Identity"]
 * const g = ef.loadFunction(artifacts);
 * g(ef.constant([-1, 3])).arraySync(); // [0, 6]
 */
export function saveFunction(f: Saveable, options: SaveOptions = {}): SavedFunctionArtifacts {
  const w = writeConcrete(concreteOf(f), options);
  return {
    modelTopology: w.graphDef,
    format: 'graph-model',
    generatedBy: GENERATED_BY,
    convertedBy: null,
    weightSpecs: w.weightSpecs,
    weightData: w.weightData,
    signature: w.signature,
    userDefinedMetadata: { eagerflow: w.metadata },
  };
}

/**
 * Writes `model.json` and one weights file into `dir` (created if needed); resolves to their paths.
 * @example
 * // not-run (writes files)
 * await ef.saveFunctionToDir(f, '/tmp/double');
 * const g = await ef.loadFunction('/tmp/double');
 */
export async function saveFunctionToDir(f: Saveable, dir: string, options: SaveOptions = {}): Promise<{ modelJson: string; weights: string }> {
  const a = saveFunction(f, options);
  const { fs, path } = nodeFs('saveFunctionToDir');
  await fs.mkdir(dir, { recursive: true });
  const { weightSpecs, weightData, ...rest } = a;
  const modelJson = path.join(dir, 'model.json');
  const weights = path.join(dir, WEIGHTS_FILE);
  await fs.writeFile(weights, new Uint8Array(weightData));
  await fs.writeFile(modelJson, JSON.stringify({ ...rest, weightsManifest: [{ paths: [WEIGHTS_FILE], weights: weightSpecs }] }));
  return { modelJson, weights };
}

/**
 * Loads what saveFunction wrote, or any tfjs-converter graph model: in-memory artifacts give the
 * callable now; a model.json path (any file name), its directory, a `file://` or `http(s)://` URL, or
 * a tfjs `io.IOHandler` give a Promise of it. A SavedModel directory gives its `serving_default`
 * signature (inputs and outputs named by the signature's keys).
 * Host callbacks are looked up by key in `hostFunctions` (or ef.registerHostFunction); nothing in
 * the file is ever evaluated as code.
 * @example
 * const f = ef.trace((x) => ef.reduceSum(ef.square(x)), { inputSignature: [new ef.TensorSpec([3])] });
 * const g = ef.loadFunction(ef.saveFunction(f));
 * g([1, 2, 3]).item(); // 14
 */
export function loadFunction<R = unknown>(source: string | ModelSource, options?: LoadOptions): Promise<LoadedFunction<R>>;
export function loadFunction<R = unknown>(artifacts: object, options?: LoadOptions): LoadedFunction<R>;
export function loadFunction(x: unknown, options: LoadOptions = {}): LoadedFunction | Promise<LoadedFunction> {
  if (typeof x === 'string') return isSavedModelDir(x).then((sm) => (sm ? loadServingFunction(x, options) : readModel(x).then((a) => loadArtifacts(a, options))));
  if (isModelSource(x)) return x.load().then((a) => loadArtifacts(a, options));
  return loadArtifacts(x, options);
}
