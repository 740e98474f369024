/**
 * The shape of the code, read with the TypeScript compiler: no import circle in `src/`, nothing in `src/`,
 * `scripts/` or `sandbox/` importing from `test/`, and no function longer
 * than 80 lines in `src/` (150 in `scripts/` and `sandbox/`). Functions already over the limit are listed
 * below with their current length, and circles already there are listed too: a listed function that grows,
 * a new one over the limit, or a new circle fails.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const LIMITS: Record<string, number> = { src: 80, scripts: 150, sandbox: 150 };

/** Functions over their folder's limit, by `file:name`, with their length in lines: none today; the list may only shrink. */
const OVER_THE_LIMIT: Record<string, number> = {};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [full] : [];
  });

const parse = (file: string): ts.SourceFile =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

const isFunction = (node: ts.Node): node is FunctionNode =>
  (ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)) &&
  node.body !== undefined;

/** A function's name as a reader finds it: its own, its variable's, its property's, or its caller's. */
const nameOf = (node: FunctionNode): string => {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)))
    return parent.name.text;
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText().replace(/\s+/g, '');
    return `${callee.length > 40 ? callee.slice(-40) : callee}(callback)`;
  }
  return '(anonymous)';
};

/** Every function of `file` with its length in lines (from its first line to its last). */
const functionLengths = (file: string): Array<{ id: string; lines: number }> => {
  const source = parse(file);
  const found: Array<{ id: string; lines: number }> = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, outer: string) => {
    let scope = outer;
    if (isFunction(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = outer ? `${outer}/${nameOf(node)}` : nameOf(node);
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      scope = count > 1 ? `${name}#${count}` : name;
      found.push({ id: `${relative(file)}:${scope}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, scope));
  };
  visit(source, '');
  return found;
};

/** The files of `src/` each file imports at run time (type-only imports leave nothing to load). */
const runtimeImports = (file: string): string[] => {
  const source = parse(file);
  const targets: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), specifier.text);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => {
      try {
        return statSync(candidate).isFile();
      } catch {
        return false;
      }
    });
    if (target) targets.push(target);
  }
  return targets;
};

/** The import circles among `files` (strongly connected groups of two or more, or a file importing itself). */
const importCircles = (files: string[]): string[][] => {
  const graph = new Map(files.map((file) => [file, runtimeImports(file).filter((t) => files.includes(t))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const connect = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(relative(member));
      if (member === file) break;
    }
    if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return circles;
};

describe('architecture', () => {
  it('has no import circle in src/', () => {
    const circles = importCircles(sourceFiles(path.join(ROOT, 'src'))).map((group) => group.join(' ↔ '));
    expect(circles).toEqual([]);
  });

  it.each(['src', 'scripts', 'sandbox'])(
    '%s/ imports nothing from test/ (shared helpers live outside it)',
    (folder) => {
      const testDir = path.join(ROOT, 'test') + path.sep;
      const intoTests = sourceFiles(path.join(ROOT, folder)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/(?:from|import|require)\s*\(?\s*'(\.[^']*)'/g)]
          .filter((match) => path.resolve(path.dirname(file), match[1]!).startsWith(testDir))
          .map((match) => `${relative(file)} → ${match[1]}`),
      );
      expect(intoTests).toEqual([]);
    },
  );

  it('finds an import circle when there is one, and not through type-only imports', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'circle-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      writeFileSync(path.join(dir, 'b.ts'), "import { c } from './c';\nexport const b = c;\n");
      writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport const c = a;\n");
      writeFileSync(path.join(dir, 'd.ts'), "import type { T } from './e';\nexport type D = T;\n");
      writeFileSync(path.join(dir, 'e.ts'), "import type { D } from './d';\nexport type T = D;\n");
      const files = ['a', 'b', 'c', 'd', 'e'].map((name) => path.join(dir, `${name}.ts`));
      expect(importCircles(files).map((group) => group.map((file) => path.basename(file)))).toEqual([
        ['a.ts', 'b.ts', 'c.ts'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(Object.entries(LIMITS))(
    'has no function over the limit in %s/ (%i lines) beyond the listed ones',
    (folder, limit) => {
      const over = sourceFiles(path.join(ROOT, folder))
        .flatMap(functionLengths)
        .filter(({ lines }) => lines > limit);
      const unlisted = over.filter(({ id }) => OVER_THE_LIMIT[id] === undefined);
      const grown = over.filter(
        ({ id, lines }) => OVER_THE_LIMIT[id] !== undefined && lines > OVER_THE_LIMIT[id]!,
      );
      // A listed function that is back under the limit leaves the list: it only shrinks.
      const listed = Object.keys(OVER_THE_LIMIT).filter((id) => id.startsWith(`${folder}/`));
      const shrunk = listed.filter((id) => !over.some((fn) => fn.id === id));
      expect({ unlisted, grown, shrunk }).toEqual({ unlisted: [], grown: [], shrunk: [] });
    },
  );

  it('measures a function from its first line to its last', () => {
    const lengths = functionLengths(path.join(ROOT, 'src/memory/record.ts'));
    expect(lengths.map(({ id }) => id)).toContain('src/memory/record.ts:cacheRecord');
    expect(lengths.find(({ id }) => id === 'src/memory/record.ts:cacheRecord')!.lines).toBeGreaterThan(10);
  });
});
