// Jest configuration: TypeScript via esbuild (scripts/esbuild-ts.js, standard decorators); workspace packages mapped to source.
import type { Config } from 'jest';

const config: Config = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': '<rootDir>/scripts/esbuild-ts.js' },
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test-output/'],
  // ESM-only dependencies (fast-png and its iobuffer) go through the same transform to CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!(fast-png|iobuffer)/)'],
  modulePathIgnorePatterns: ['<rootDir>/test-output/'],
  moduleNameMapper: {
    '^eagerflow$': '<rootDir>/packages/eagerflow/src/index.ts',
    '^@eagerflow/(core|function|callbacks|saving)$': '<rootDir>/packages/$1/src/index.ts',
  },
  testTimeout: 60000,
};

export default config;
