#!/bin/sh
# The longer fuzz of the TF file readers (TensorBundle .index/.data, saved_model.pb): the jest suite with more cases.
# Usage: scripts/tf-files/fuzz_readers.sh [cases]   (default 5000; npm test runs 150)
EF_FUZZ_CASES="${1:-5000}" exec npx jest packages/eagerflow/test/saving/file_fuzz.test.ts
