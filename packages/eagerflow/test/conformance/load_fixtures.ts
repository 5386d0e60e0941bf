// Reads the TensorFlow golden fixtures (written by scripts/tf-golden) from disk.
import * as fs from 'fs';
import * as path from 'path';
import type { OpFixture } from './fixtures';

const FIXTURE_DIR = path.join(__dirname, 'fixtures');

export function loadFixtures(): OpFixture[] {
  return fs
    .readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, f), 'utf8')) as OpFixture);
}
