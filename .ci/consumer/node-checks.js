// Node side of the consumer test, emitted as node-checks.cjs and node-checks.mjs: the program, a directory round trip, and package hygiene checks.
// Written in the subset both module systems share; `load(name)` is require or import, `resolved` is where 'eagerflow' resolved.
async function nodeChecks({ load, resolved, kind, tmpdir, loadedFiles }) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(' '));
  const ef = await load('eagerflow');
  const prog = await load(kind === 'cjs' ? './program.cjs' : './program.mjs');
  const tf = await load('@tensorflow/tfjs-core');
  console.warn = warn;
  const fail = (what, got, expected) => {
    throw new Error(`consumer ${kind}: ${what} (got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)})`);
  };
  const want = JSON.stringify(prog.EXPECTED);
  const inMemory = await prog.program();
  if (JSON.stringify(inMemory) !== want) fail('the program printed something else', inMemory, prog.EXPECTED);
  // Directory save/load (Node 20.19+): the same program, reloading from files.
  const dir = `${tmpdir}/saved-${kind}`;
  const onDisk = await prog.program(async (f) => {
    await ef.saveFunctionToDir(f, dir, { hostFunctionKeys: prog.hostFunctionKeys });
    return ef.loadFunction(dir, { hostFunctions: prog.hostFunctions });
  });
  if (JSON.stringify(onDisk) !== want) fail('the directory round trip printed something else', onDisk, prog.EXPECTED);
  if (warnings.length > 0) fail('loading printed warnings', warnings, []);
  if (!resolved.endsWith(kind === 'cjs' ? '/eagerflow/dist/index.js' : '/eagerflow/dist/esm/index.js')) fail("'eagerflow' resolved to the wrong build", resolved, `dist/${kind === 'cjs' ? '' : 'esm/'}index.js`);
  // Node pulls no WebGL code: no webgl kernels registered, no webgl module loaded.
  const webglKernels = tf.getKernelsForBackend('webgl').length;
  if (webglKernels !== 0) fail('WebGL kernels are registered in Node', webglKernels, 0);
  const webglFiles = loadedFiles().filter((f) => f.includes('tfjs-backend-webgl'));
  if (webglFiles.length > 0) fail('WebGL modules were loaded in Node', webglFiles, []);
  let message = '';
  await ef.setBackend('webgl').catch((e) => (message = e.message));
  if (!message.includes('npm i @tensorflow/tfjs-backend-webgl')) fail('the missing-backend error does not name the package', message, 'npm i @tensorflow/tfjs-backend-webgl');
  // One tfjs-core: the user's tfjs tensors are EagerFlow's tfjs tensors.
  const shared = ef.multiply(ef.constant(tf.tensor([1, 2])), 3).arraySync();
  if (JSON.stringify(shared) !== '[3,6]') fail('a tfjs tensor did not convert', shared, [3, 6]);
  console.log(`consumer ${kind}: ok (program, directory save/load, no WebGL in Node, backend error names its package, one tfjs-core)`);
}
