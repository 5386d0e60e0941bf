// One fuzzing child process: `node -r scripts/fuzz/register-src.js test/fuzz/child.ts <op|loader|files> <seed> <from> <count>`.
// Prints "S <i>" before case i and "R <i> <status> <detail>" after it, so the parent (scripts/fuzz/run.js) knows
// which case crashed the process or hung when it has to kill it.
import * as ef from 'eagerflow';
import { opCase, runOpCase } from './op_fuzz';
import { bases, loaderCase, runLoaderCase } from './loader_fuzz';
import { fileBases, fileCase, runFileCase } from './file_fuzz';
import type { CaseResult } from './outcome';

const [fuzzer, seedArg, fromArg, countArg] = process.argv.slice(2);
const seed = Number(seedArg);
const from = Number(fromArg);
const count = Number(countArg);
const verbose = process.env.EF_FUZZ_VERBOSE === '1';

// Quiet: ef.print output, retrace warnings and console warnings are the ops' normal behaviour, not findings.
ef.internal.printOutput.write = () => undefined;
ef.retraceConfig.warn = () => undefined;
console.warn = () => undefined;

const out = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  if (fuzzer === 'loader') bases();
  if (fuzzer === 'files') await fileBases();
  for (let i = from; i < from + count; i++) {
    out(`S ${i}`);
    let res: CaseResult;
    let what = '';
    try {
      if (fuzzer === 'op') {
        const c = opCase(seed, i);
        what = c.describe;
        res = runOpCase(c);
      } else if (fuzzer === 'loader') {
        const c = loaderCase(seed, i);
        what = c.describe;
        res = runLoaderCase(c);
      } else {
        const c = fileCase(seed, i);
        what = c.describe;
        res = await runFileCase(c);
      }
    } catch (e) {
      // The harness itself failed (e.g. a result nested too deep): reported as a non-library error of the case.
      res = { status: 'harnessError', detail: `fuzz harness: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (verbose || (res.status !== 'ok' && res.status !== 'refused')) out(`R ${i} ${res.status} ${JSON.stringify({ case: what, detail: res.detail ?? '' })}`);
    else out(`R ${i} ${res.status}`);
  }
}

main().catch((e) => {
  process.stderr.write(`fuzz child: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
