// Playground UI: pick an example, edit, run on cpu or webgl; print() writes results, drawGraph() renders SVG;
// each run's tensors are freed on exit except keep()-ed ones, and the status line tracks the live tensor count.
/* global ef, efPlaygroundExamples */
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const { examples, missing } = efPlaygroundExamples;
  const AsyncFunction = (async () => undefined).constructor;
  let runs = 0;
  /** Live tensors after the previous run (null before the first): the status line warns when the count grows. */
  let lastCount = null;

  function setState(state, message) {
    document.body.dataset.state = state;
    $('status').textContent = message;
  }

  /** Tensors print TensorFlow-style (their toString); other values as JSON or text. */
  function show(v) {
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof v.dtype === 'string' && typeof v.toString === 'function') return v.toString();
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }

  function print(...values) {
    $('output').textContent += values.map(show).join(' ') + '\n';
  }

  /** The lazily loaded chunks (scripts/build-playground.js): elkjs + the graph view, CodeMirror. */
  const chunk = (name) => import(new URL(`build/${name}.js`, document.baseURI).href);
  /** Graph drawings started by the running code: the run finishes when they are on screen. */
  let drawing = [];

  /** Draws a ConcreteFunction (or Graph, or operation records) in the graph panel with elkjs' layered layout. */
  function drawGraph(graph, options = {}) {
    const read = (c) => ef.internal.backend.readInfoSync(c);
    const done = chunk('graph-view').then(async (m) => {
      const panel = $('graph');
      const view = await m.mountGraph(panel, graph, { read });
      if (options.optimized) await view.setOptimized(true);
      window.efPlayground.graph = view;
      return view;
    });
    drawing.push(done);
    return done;
  }

  /** Shows a [h, w], [h, w, 1] or [h, w, 3] tensor (values in [0, 1]) as an image under the results. */
  async function showImage(t, label = '') {
    const [h, w, c = 1] = t.shape.dims;
    const data = await t.data();
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const g = canvas.getContext('2d');
    const img = g.createImageData(w, h);
    for (let i = 0; i < w * h; i++) {
      for (let k = 0; k < 3; k++) img.data[4 * i + k] = Math.round(255 * Math.min(1, Math.max(0, data[i * c + (c === 3 ? k : 0)])));
      img.data[4 * i + 3] = 255;
    }
    g.putImageData(img, 0, 0);
    const fig = document.createElement('figure');
    fig.append(canvas, Object.assign(document.createElement('figcaption'), { textContent: label }));
    $('images').append(fig);
  }

  /** Draws `values` as a line chart (a live loss curve when called after every epoch). */
  function plot(values, label = '') {
    const w = 560, h = 160, pad = 28;
    const max = Math.max(...values), min = Math.min(0, ...values);
    const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
    const y = (v) => h - pad - ((v - min) * (h - 2 * pad)) / (max - min || 1);
    const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    $('chart').innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" data-points="${values.length}">` +
      `<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#999"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="#999"/>` +
      `<polyline fill="none" stroke="#24364f" stroke-width="2" points="${pts}"/>` +
      `<text x="${pad + 4}" y="${pad - 8}" font-size="12">${label} ${values.length ? values[values.length - 1].toFixed(4) : ''} (max ${max.toFixed(3)})</text></svg>`;
  }

  /** keep(x): tensors (or a structure of them) that outlive the run; everything else the run made is freed. */
  function keep(x) {
    const seen = new Set();
    const walk = (v) => {
      if (v === null || typeof v !== 'object' || seen.has(v)) return;
      seen.add(v);
      if (v instanceof ef.Tensor) ef.keep(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach(walk);
    };
    walk(x);
    return x;
  }

  /** The status line after a run: time, backend, live tensors, and a warning when the count grew. */
  function memoryStatus() {
    const n = ef.memory().numTensors;
    const grew = lastCount !== null && n > lastCount ? n - lastCount : 0;
    document.body.dataset.tensors = String(n);
    document.body.dataset.tensorGrowth = String(grew);
    $('status').classList.toggle('warn', grew > 0);
    lastCount = n;
    return `tensors ${n}` + (grew > 0 ? ` ⚠ +${grew} since the last run (keep()-ed tensors, new variables or traced functions still alive)` : '');
  }

  const SOURCE_URL = 'playground-code.js';
  const PARAMS = ['ef', 'print', 'drawGraph', 'plot', 'showImage', 'keep', 'console'];
  const compile = (code) => new AsyncFunction(...PARAMS, `${code}\n//# sourceURL=${SOURCE_URL}`);
  // An op's error passes through ~10 library frames (conversion, weak-type promotion, bind, infer) before the
  // user's line: keep enough of the stack to reach it (V8 keeps 10 frames by default).
  Error.stackTraceLimit = Math.max(Error.stackTraceLimit || 0, 64);
  /** Lines V8 puts before the body of a Function-constructed function: measured once, not assumed. */
  let headerLines = 2;
  const calibrated = compile('throw new Error("probe")')().catch((e) => {
    const m = new RegExp(`${SOURCE_URL}:(\\d+):`).exec(String(e.stack));
    if (m) headerLines = Number(m[1]) - 1;
  });

  /** The 1-based line of the user's code an error comes from: the parse tree for syntax errors, else the stack. */
  function errorLine(e, code) {
    if (e instanceof SyntaxError && editor) {
      const at = editor.syntaxError();
      if (at) return at.line;
    }
    const m = new RegExp(`${SOURCE_URL}:(\\d+):`).exec(String(e && e.stack));
    if (!m) return null;
    const line = Number(m[1]) - headerLines;
    return line >= 1 && line <= code.split('\n').length ? line : null;
  }

  async function run() {
    const code = getCode();
    $('output').textContent = '';
    $('output').classList.remove('error');
    delete $('output').dataset.errorLine;
    $('graph').innerHTML = '';
    $('chart').innerHTML = '';
    $('images').innerHTML = '';
    drawing = [];
    setState('running', 'running…');
    const t0 = performance.now();
    const console = { log: print, info: print, warn: print, error: print };
    // One engine scope around the whole (async) run: on exit every tensor the run made is freed except
    // keep()-ed ones, returned ones and variables (their values are kept by the Variable itself).
    ef.internal.backend.startScope('playground run');
    let failed = null;
    try {
      const fn = compile(code);
      keep(await fn(ef, print, drawGraph, plot, showImage, keep, console));
      await Promise.all(drawing);
    } catch (e) {
      failed = e;
    } finally {
      ef.internal.backend.endScope([]);
    }
    if (failed === null) {
      const ms = (performance.now() - t0).toFixed(1);
      setState('done', `done in ${ms} ms on ${ef.getBackend()} · ${memoryStatus()}`);
    } else {
      const e = failed;
      $('output').classList.add('error');
      print(`${e && e.name ? e.name : 'Error'}: ${e && e.message ? e.message : e}`);
      const at = errorLine(e, code);
      if (at !== null) {
        print(`  at line ${at} of your code:  ${code.split('\n')[at - 1].trim()}`);
        $('output').dataset.errorLine = String(at);
        if (editor) editor.showLine(at);
      }
      setState('error', `error on ${ef.getBackend()} · ${memoryStatus()}`);
    }
    $('output').dataset.runs = String(++runs);
  }

  /** The code being edited (the CodeMirror editor once loaded, the textarea until then). */
  let editor = null;
  function getCode() {
    return editor ? editor.getCode() : $('code').value;
  }
  function setCode(code) {
    if (editor) editor.setCode(code);
    else $('code').value = code;
  }
  window.efPlayground = { getCode, setCode, run };

  /** The URL holds the example id and, once edited, the code (base64url of its UTF-8): a link shares it. */
  const encode = (code) => btoa(String.fromCharCode(...new TextEncoder().encode(code))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const decode = (s) => new TextDecoder().decode(Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));
  function saveToUrl() {
    const id = $('example').value;
    const ex = examples.find((e) => e.id === id);
    const code = getCode();
    const hash = new URLSearchParams({ example: id });
    if (!ex || ex.code !== code) hash.set('code', encode(code));
    history.replaceState(null, '', `#${hash}`);
  }
  function fromUrl() {
    const hash = new URLSearchParams(location.hash.slice(1));
    let code = null;
    try {
      code = hash.has('code') ? decode(hash.get('code')) : null;
    } catch {
      code = null;
    }
    return { example: hash.get('example'), code };
  }

  function loadExample(id) {
    const ex = examples.find((e) => e.id === id);
    if (ex) setCode(ex.code);
    saveToUrl();
  }

  async function switchBackend(name) {
    setState('running', `switching to ${name}…`);
    try {
      await ef.setBackend(name);
      await ef.ready();
      setState('idle', `backend: ${ef.getBackend()}`);
    } catch (e) {
      setState('error', `backend ${name} failed: ${e.message}`);
      $('backend').value = ef.getBackend();
    }
  }

  async function init() {
    const select = $('example');
    for (const ex of examples) {
      const lacks = missing(ex, ef);
      const opt = new Option(lacks.length ? `${ex.title} (needs ef.${lacks.join(', ef.')})` : ex.title, ex.id);
      opt.disabled = lacks.length > 0;
      select.add(opt);
    }
    select.addEventListener('change', () => loadExample(select.value));
    $('backend').addEventListener('change', () => switchBackend($('backend').value));
    $('run').addEventListener('click', run);
    $('reset').addEventListener('click', () => loadExample(select.value));
    $('share').addEventListener('click', async () => {
      saveToUrl();
      try {
        await navigator.clipboard.writeText(location.href);
        $('share').textContent = 'link copied';
      } catch {
        $('share').textContent = 'link in the address bar';
      }
      setTimeout(() => ($('share').textContent = 'share'), 1500);
    });
    const start = fromUrl();
    const first = examples.find((e) => e.id === start.example && missing(e, ef).length === 0) || examples[0];
    select.value = first.id;
    setCode(start.code ?? first.code);
    try {
      const m = await chunk('editor');
      editor = m.mountEditor($('code'), { onRun: run, onChange: saveToUrl });
    } catch (e) {
      // The textarea keeps working when the chunk is missing (the page served without `npm run playground`).
      $('code').addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) run();
      });
      $('code').addEventListener('input', saveToUrl);
      console.warn(`playground: the editor chunk did not load (${e.message}); using a plain textarea.`);
    }
    saveToUrl();
    await calibrated;
    await switchBackend($('backend').value);
    document.body.dataset.ready = 'true';
  }

  init();
})();
