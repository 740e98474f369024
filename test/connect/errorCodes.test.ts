/**
 * `src/connect/` owns the wire: the error codes of the contract (docs/connect-contract.md §2) are read there
 * and nowhere else in `src/`. Operations act on the meanings it exports (`isNotFound`, `checkInFailureOf`,
 * `eventNotFoundError`, …).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The codes of the contract's error table: its rows read "| 404 | `NOT_FOUND` | …". */
const contractCodes = (): string[] => {
  const contract = readFileSync(path.join(ROOT, 'docs', 'connect-contract.md'), 'utf8');
  return [...contract.matchAll(/^\|\s*[0-9x]{3}\s*\|\s*`([A-Z_]+)`/gm)]
    .map((match) => match[1])
    .filter((code): code is string => Boolean(code));
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });

it('reads the error codes of the contract', () => {
  expect(contractCodes()).toEqual(
    expect.arrayContaining(['VALIDATION_ERROR', 'NOT_FOUND', 'TICKET_NOT_FOUND', 'SUBMISSION_NOT_APPROVED']),
  );
});

it('reads API error codes only in src/connect/', () => {
  const codes = contractCodes();
  const connect = path.join(ROOT, 'src', 'connect') + path.sep;
  const outside = sourceFiles(path.join(ROOT, 'src')).filter((file) => !file.startsWith(connect));
  expect(outside.length).toBeGreaterThan(10);
  const found = outside.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return codes
      .filter((code) => new RegExp(`['"\`]${code}['"\`]`).test(text))
      .map((code) => `${path.relative(ROOT, file)}: ${code}`);
  });
  expect(found).toEqual([]);
});
