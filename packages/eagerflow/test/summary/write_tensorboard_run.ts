// `node -r ./scripts/register-ts.js packages/eagerflow/test/summary/write_tensorboard_run.ts <logdir>` (after
// `npx tsc -b`): writes the fixed run of tensorboard_run.ts and prints the event file and its digest as JSON.
import { eventsDigest, writeTensorBoardRun } from './tensorboard_run';

const logdir = process.argv[2];
if (!logdir) throw new Error('usage: write_tensorboard_run.ts <logdir>');
const file = writeTensorBoardRun(logdir);
console.log(JSON.stringify({ file, digest: eventsDigest(file) }));
