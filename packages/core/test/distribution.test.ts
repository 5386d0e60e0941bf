// How the published packages meet a user's tfjs: a second tfjs-core copy is detected with a clear warning; a missing backend names its package.
import * as ef from 'eagerflow';

type Warn = jest.SpyInstance<void, unknown[]>;
const COPIES = Symbol.for('eagerflow.tfjsCoreCopies');

/** Loads a module as a separate copy (fresh module registry), the way a second node_modules folder would. */
function loadCopy(id: string): void {
  jest.isolateModules(() => {
    require(id);
  });
}

// What the one EagerFlow + tfjs-core of this test file registered, before any test adds copies.
const atLoad = (globalThis as Record<symbol, { versions: string[]; warned: boolean } | undefined>)[COPIES];

describe('a second copy of @tensorflow/tfjs-core', () => {
  let warn: Warn;
  /** EagerFlow's own warnings (a second tfjs backend copy also prints tfjs's "already registered" lines). */
  const ours = (): string[] => warn.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('eagerflow:'));
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    delete (globalThis as Record<symbol, unknown>)[COPIES];
  });
  afterEach(() => warn.mockRestore());

  test('one copy registers itself and does not warn', () => {
    expect(atLoad).toEqual({ versions: ['4.22.0'], tensors: [expect.any(Function)], cores: 1, warned: false });
    expect(ef.getBackend()).toBe('cpu');
  });

  test('EagerFlow loaded with its own tfjs-core, next to the copy that made the engine, warns once with the fix', () => {
    const before = ef.memory().numTensors;
    loadCopy('../src/backend/backend'); // a fresh tfjs-core: it finds the engine this file's copy created
    expect(ours()).toHaveLength(1);
    const message = ours()[0];
    expect(message).toBe(
      'eagerflow: two copies of @tensorflow/tfjs-core are loaded (got versions 4.22.0 and the one that created the tfjs engine first, expected one shared copy). ' +
        "Tensors of one copy are not tensors of the other, and ops may run on the other copy's kernels. " +
        'Run `npm ls @tensorflow/tfjs-core` to find them, align your tfjs packages with the peer range EagerFlow declares, then run `npm dedupe`.',
    );
    loadCopy('../src/backend/backend');
    expect(ours()).toHaveLength(1); // once per process
    expect(ef.memory().numTensors).toBe(before);
  });

  test('two EagerFlow copies on a fresh engine: the second names both versions', () => {
    const g = globalThis as { _tfengine?: unknown };
    const saved = g._tfengine;
    delete g._tfengine;
    try {
      loadCopy('../src/backend/backend'); // makes the engine: nothing to report yet
      expect(ours()).toEqual([]);
      loadCopy('../src/backend/backend');
      expect(ours()).toHaveLength(1);
      expect(ours()[0]).toContain('(got versions 4.22.0, 4.22.0 and the one that created the tfjs engine first, expected one shared copy)');
    } finally {
      g._tfengine = saved;
    }
  });
});

describe('EagerFlow loaded twice on one tfjs-core', () => {
  test('a second @eagerflow/core (say, ESM next to CommonJS) warns once, saying how to fix it', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const g = globalThis as Record<symbol, unknown>;
    delete g[COPIES];
    const tf = jest.requireActual<typeof import('@tensorflow/tfjs-core')>('@tensorflow/tfjs-core');
    const loadSharingTfjs = (): void => {
      jest.isolateModules(() => {
        jest.doMock('@tensorflow/tfjs-core', () => tf);
        jest.doMock('@tensorflow/tfjs-backend-cpu', () => ({}));
        require('../src/backend/backend');
      });
    };
    try {
      loadSharingTfjs();
      expect(warn).not.toHaveBeenCalled();
      loadSharingTfjs();
      loadSharingTfjs();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toBe(
        'eagerflow: EagerFlow is loaded twice (got 2 copies of @eagerflow/core, expected one): its ES-module build through import and its CommonJS build through require, or two installed versions. ' +
          'Tensors of one copy are not ef.Tensors of the other. Load EagerFlow through one module system (import or require), and run `npm ls @eagerflow/core`, then `npm dedupe`.',
      );
    } finally {
      jest.dontMock('@tensorflow/tfjs-core');
      jest.dontMock('@tensorflow/tfjs-backend-cpu');
      warn.mockRestore();
    }
  });
});

describe("a user's own tfjs-core", () => {
  test('loaded first, in another copy: EagerFlow warns when it loads', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const g = globalThis as { _tfengine?: unknown } & Record<symbol, unknown>;
    const saved = g._tfengine;
    delete g._tfengine;
    delete g[COPIES];
    try {
      loadCopy('@tensorflow/tfjs-core'); // the app's tfjs (say, another version in its own node_modules)
      loadCopy('../src/backend/backend');
      const ours = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('eagerflow:'));
      expect(ours).toHaveLength(1);
      expect(ours[0]).toContain('two copies of @tensorflow/tfjs-core are loaded');
    } finally {
      g._tfengine = saved;
      warn.mockRestore();
    }
  });
});

describe('missing backends name the package to install', () => {
  test('wasm without its package installed names the npm command (the optional peer)', async () => {
    const before = ef.memory().numTensors;
    // What Node's require/import throws when the package is not installed.
    const missing = Object.assign(new Error("Cannot find module '@tensorflow/tfjs-backend-wasm'"), { code: 'MODULE_NOT_FOUND' });
    ef.internal.backend.registerBackendLoader('wasm', () => Promise.reject(missing));
    const err = await ef.setBackend('wasm').catch((e: Error) => e);
    expect(err).toBeInstanceOf(ef.errors.NotFoundError);
    expect((err as Error).message).toBe(
      "setBackend: backend 'wasm' needs the package @tensorflow/tfjs-backend-wasm, which is not installed (got 'wasm', expected an installed @tensorflow/tfjs-backend-wasm). Install it: npm i @tensorflow/tfjs-backend-wasm (an optional peer dependency of eagerflow), then call ef.setBackend('wasm') again; a bundled web app also imports it: import '@tensorflow/tfjs-backend-wasm'.",
    );
    expect(ef.getBackend()).toBe('cpu');
    expect(ef.memory().numTensors).toBe(before);
  });

  test.each([
    ['webgpu', '@tensorflow/tfjs-backend-webgpu'],
    ['tensorflow', '@tensorflow/tfjs-node'],
  ])('setBackend(%s) in Node', async (name, pkg) => {
    const before = ef.memory().numTensors;
    const err = await ef.setBackend(name).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message.startsWith(`setBackend: unknown backend '${name}' (got '${name}', expected 'cpu')`)).toBe(true);
    expect(message).toContain(`npm i ${pkg}, then import '${pkg}' before ef.setBackend('${name}')`);
    expect(ef.getBackend()).toBe('cpu');
    expect(ef.memory().numTensors).toBe(before);
  });

  test('webgl in Node says there is no WebGL here (issue 17), and where a web app gets it', async () => {
    await expect(ef.setBackend('webgl')).rejects.toThrow(/^setBackend: WebGL is not available in Node\.js/);
    await expect(ef.setBackend('webgl')).rejects.toThrow("a bundled web app gets it with 'eagerflow' (its browser entry)");
  });

  test('an unknown name keeps the generic advice', async () => {
    await expect(ef.setBackend('no-such')).rejects.toThrow(/^setBackend: unknown backend 'no-such' \(got 'no-such', expected 'cpu'\)\. Import the backend package first or pick a registered one\.$/);
  });
});
