// The seam between saving and host callbacks: @eagerflow/callbacks (via the umbrella) installs a bridge here.
import type { DType, Dims, Params, Tensor } from '@eagerflow/core';

/** A host function as saving sees it (never serialized: only its key is). */
export type HostFunction = (...args: never[]) => unknown;

/**
 * What saving needs to know about one host-callback node. Any further fields the bridge returns
 * (how outputs are packed, contrib kwargs, a name...) must be JSON-able: they are stored in a JSON
 * attr and handed back to `call` on load.
 */
export interface HostCallbackInfo {
  /** The stable key the function was registered under (`ef.registerHostFunction`), if any. */
  readonly key: string | null;
  /** The per-graph token (what `hostFunctionKeys` may be keyed by). */
  readonly token: string;
  /** The callback itself (`hostFunctionKeys` may also be a Map keyed by function). */
  readonly fn: HostFunction | null;
  /** pyFunction, numpyFunction, pyFunc, ... (restored with the same flavor). */
  readonly flavor: string;
  readonly Tout: readonly DType[];
  readonly stateful: boolean;
  readonly outputShapes: readonly Dims[] | null;
}

/**
 * What the loader hands back to the bridge: the key's function, the node's attrs, and the extra
 * fields saved from `describe` (parsed from the file: the bridge must validate them).
 */
export interface HostCallbackLoad {
  readonly [extra: string]: unknown;
  readonly key: string;
  readonly fn: HostFunction;
  readonly flavor: string;
  readonly Tout: readonly DType[];
  readonly stateful: boolean;
  readonly outputShapes: readonly Dims[] | null;
}

/** The fields saving stores itself; every other field of HostCallbackInfo goes to the JSON attr. */
export const HOST_FIELDS: readonly string[] = ['key', 'token', 'fn', 'flavor', 'Tout', 'stateful', 'outputShapes'];

/** Implemented where both the graph and the callbacks packages are visible (the umbrella). */
export interface HostCallbackBridge {
  /** Whether a node's primitive is the host-callback primitive. */
  isHostCallback(primName: string): boolean;
  /** Reads a host-callback node's params. */
  describe(params: Params): HostCallbackInfo;
  /** The function registered under a stable key in this process, if any. */
  lookup(key: string): HostFunction | undefined;
  /** Binds a callback on `inputs` (inside the loader's trace); returns its outputs. Throws on bad attrs. */
  call(info: HostCallbackLoad, inputs: Tensor[]): Tensor[];
}

/** The installed bridge (null until @eagerflow/callbacks is loaded through the umbrella). */
export const hostCallbacks: { bridge: HostCallbackBridge | null } = { bridge: null };

/**
 * Installs the host-callback bridge (the umbrella package does it once; users need not).
 * @example
 * // not-run (replaces the installed bridge)
 * ef.internal.installHostCallbackBridge({ isHostCallback, describe, lookup, call });
 */
export function installHostCallbackBridge(bridge: HostCallbackBridge): void {
  hostCallbacks.bridge = bridge;
}

/**
 * The host-callback primitive's name, read only while no bridge is installed, so that saving such a
 * node says the bridge is missing instead of "no GraphDef mapping".
 */
export const HOST_CALLBACK_PRIMITIVE = 'host_callback';

/** Marker attr on host-callback nodes (the node's op is the stable key). */
export const HOST_MARK = '_eagerflow_host_callback';
/** JSON attr holding HostCallbackInfo.extra. */
export const HOST_EXTRA = '_eagerflow_callback';
