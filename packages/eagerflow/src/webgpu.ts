// The WebGPU backend for browser builds: tfjs-backend-webgpu's kernels and backend class, loaded when `ef.setBackend('webgpu')` first asks.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { FailedPreconditionError, backend, opError } from '@eagerflow/core';

/** What a page lacks when it has no WebGPU (the error names it). */
function noWebgpu(what: string): FailedPreconditionError {
  return opError(
    FailedPreconditionError, 'setBackend', 'WebGPU is not available here', what, 'a GPU adapter from navigator.gpu',
    "WebGPU needs a browser that has it and a secure context (https:, or http://localhost / http://127.0.0.1); headless Chromium also needs --enable-unsafe-webgpu. Use 'webgl' or 'cpu' otherwise.",
  );
}

/**
 * Builds tfjs's WebGPUBackend the way tfjs-backend-webgpu's own registration does (adapter, device
 * with the adapter's limits), importing only its backend class and kernel registrations: importing
 * the package root would register 'webgpu' at priority 3, making it the default over cpu.
 */
async function loadWebgpu(): Promise<unknown> {
  try {
    return await startWebgpu();
  } catch (e) {
    // tfjs (in production mode) swallows a factory's error: say it here, setBackend then throws.
    console.warn(`eagerflow: the webgpu backend did not start: ${(e as Error).message}`);
    throw e;
  }
}

async function startWebgpu(): Promise<unknown> {
  const gpu = (globalThis as { navigator?: { gpu?: any } }).navigator?.gpu;
  if (gpu === undefined) throw noWebgpu('no navigator.gpu');
  const [{ WebGPUBackend }] = await Promise.all([import('@tensorflow/tfjs-backend-webgpu/dist/backend_webgpu'), import('@tensorflow/tfjs-backend-webgpu/dist/register_all_kernels')]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (adapter === null || adapter === undefined) throw noWebgpu('navigator.gpu.requestAdapter() returned null');
  const features = ['timestamp-query', 'bgra8unorm-storage'].filter((f) => adapter.features.has(f));
  const limits = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: features,
    requiredLimits: {
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
    },
  });
  const info = 'info' in adapter ? adapter.info : typeof adapter.requestAdapterInfo === 'function' ? await adapter.requestAdapterInfo() : undefined;
  return new WebGPUBackend(device, info);
}

/** Registers 'webgpu' (priority 0: never the default; `await ef.setBackend('webgpu')` picks it). */
export function registerWebgpu(): void {
  backend.registerBackendOnce('webgpu', loadWebgpu, 0);
}
