const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  // Node, with each test's console held and printed only when the test fails (see the file).
  testEnvironment: '<rootDir>/test/support/environment.js',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // zapier-platform-schema built on first use, not each time a test file loads core (see the file).
  moduleNameMapper: { '^zapier-platform-schema$': '<rootDir>/test/support/platformSchema.cjs' },
  // swc strips the types (the typecheck is `npm run typecheck`'s job) and hoists `jest.mock` like ts-jest.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  // The polling plays and the sandbox's tests first, before a worker runs the app tester (see the file).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Three workers on a 2-core machine (jest's default runs one): a file that waits (a sandbox answering late,
  // a delivery retried after seconds, a process it started) leaves its core to the two others.
  // (A number: jest reads a percentage above 100% as that many workers.)
  maxWorkers: Math.ceil(availableParallelism() * 1.5),
  // The app's time limits out of reach for the whole run (workers and the processes tests start): see the file.
  globalSetup: '<rootDir>/test/support/timeLimits.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/setup.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  // Tests assert behaviour, never timings: only a real hang may reach this, however busy the machine.
  testTimeout: 600_000,
};
