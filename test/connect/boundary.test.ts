/**
 * src/connect/ is the app's one door to the wire: nothing outside it imports a wire schema, a field-name
 * table, a raw error code or a signature internal, and its index exports none of them. Imports are read with
 * the TypeScript compiler (static imports, re-exports, `require` and `import()` calls).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as door from '../../src/connect';
import * as schemas from '../../src/connect/schemas';
import * as signature from '../../src/connect/signature';
import * as splitter from '../../src/connect/listSplitter';
import * as wire from '../../src/connect/wire';
import * as wireNames from '../../src/connect/wireNames';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');
const CONNECT = path.join(SRC, 'connect');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return /\.(ts|cts|mts|js|cjs)$/.test(entry.name) ? [full] : [];
  });

interface Import {
  file: string;
  specifier: string;
  /** Values imported (`*` for a namespace or a whole-module import); type-only names are left out. */
  names: string[];
}

const importsOf = (file: string): Import[] => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const names: string[] = [];
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      const typeOnly = ts.isImportDeclaration(node) ? clause?.isTypeOnly === true : node.isTypeOnly;
      const bindings = ts.isImportDeclaration(node) ? clause?.namedBindings : node.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const element of bindings.elements) {
          if (!typeOnly && !element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
        }
      } else if (!typeOnly) {
        names.push('*');
      }
      if (clause?.name) names.push('default');
      found.push({ file, specifier: node.moduleSpecifier.text, names });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ file, specifier: node.arguments[0].text, names: ['*'] });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

/** The file an import names, without its extension (`src/connect/index` for `../connect`). */
const target = (imp: Import): string | null => {
  if (!imp.specifier.startsWith('.')) return null;
  const resolved = path.resolve(path.dirname(imp.file), imp.specifier);
  return path.relative(ROOT, resolved).replace(/\.(ts|js)$/, '');
};

const isSchema = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { safeParse?: unknown }).safeParse === 'function';

/** Wire schemas, field-name tables, signature and splitter internals, the error body. */
const FORBIDDEN = new Set<string>([
  ...Object.entries(schemas)
    .filter(([, value]) => isSchema(value) || typeof value === 'function')
    .map(([name]) => name),
  ...Object.keys(signature),
  ...Object.keys(splitter),
  ...Object.keys(wire),
  ...Object.keys(wireNames),
  'WIRE_ERROR_CODES',
  'ErrorBody',
  'throwForAnswer',
]);

const outside = filesUnder(SRC).filter((file) => !file.startsWith(`${CONNECT}${path.sep}`));
const imports = outside.flatMap(importsOf);
const intoConnect = imports.filter((imp) => target(imp)?.startsWith(`src${path.sep}connect`) ?? false);
const where = (imp: Import) => `${path.relative(ROOT, imp.file)} imports ${imp.specifier}`;

it('reads the imports of the app (the check is not vacuous)', () => {
  expect(outside.length).toBeGreaterThan(30);
  expect(intoConnect.length).toBeGreaterThan(20);
  expect(FORBIDDEN).toContain('Submission');
  expect(FORBIDDEN).toContain('sign');
  expect(FORBIDDEN).toContain('SUBMISSION_NAMES');
});

it('code outside src/connect goes through its index only, never a file behind it', () => {
  const past = intoConnect.filter((imp) => target(imp) !== path.join('src', 'connect'));
  expect(past.map(where)).toEqual([]);
});

it('code outside src/connect imports no wire schema, table, raw error code or signature internal', () => {
  const bad = intoConnect.flatMap((imp) =>
    imp.names.filter((name) => name === '*' || FORBIDDEN.has(name)).map((name) => `${where(imp)}: ${name}`),
  );
  // Only values are listed: a type of the same spelling (the app's `Submission` type) is fine.
  expect(bad).toEqual([]);
});

it('the index of src/connect exports no schema, table, signature or splitter internal', () => {
  const leaked = Object.entries(door)
    .filter(([name, value]) => isSchema(value) || (FORBIDDEN.has(name) && name !== 'default'))
    .map(([name]) => name);
  expect(leaked).toEqual([]);
});

it('the app never imports the sandbox or the wire helpers of tests', () => {
  const bad = imports.filter((imp) => {
    const to = target(imp) ?? '';
    return to.startsWith('sandbox') || to === path.join('src', 'connect', 'testing');
  });
  expect(bad.map(where)).toEqual([]);
  const inside = filesUnder(CONNECT).flatMap(importsOf);
  expect(inside.filter((imp) => (target(imp) ?? '').startsWith('sandbox')).map(where)).toEqual([]);
});
