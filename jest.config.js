/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/setup.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  // Tests assert behaviour, never timings: only a real hang may reach this, however busy the machine.
  testTimeout: 600_000,
};
