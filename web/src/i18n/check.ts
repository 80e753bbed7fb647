/**
 * What src/i18n/untranslated.test.ts checks, and scripts/i18n.ts prints while translating (Node only):
 * - texts a person reads that do not go through `t` (JSX text, the user-facing props, string literals
 *   shown from JSX, prose passed to a toast or kept in a constant), read from the TSX with the parser
 *   Vite itself uses (oxc);
 * - the ids of every `t('…')` and `m('…')`, and each catalog's messages for them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { parseSync } from 'vite';

export const WEB = path.resolve(import.meta.dirname, '../..');
export const SRC = path.join(WEB, 'src');
export const LOCALES_DIR = path.join(SRC, 'i18n/locales');

/** Props whose string a person reads or hears. */
const USER_PROP =
  /^(placeholder|title|alt|label|aria-label|aria-description|aria-roledescription|aria-valuetext|description|heading|subtitle|noun|hint|help|prompt|confirm|message|text|empty|[a-z]+(Label|Text|Title|Message|Hint|Description))$/;
/** Calls whose literal arguments are not for people: developers' errors, logs, class names, ids. */
const NOT_FOR_PEOPLE = new Set([
  't',
  'm',
  'Error',
  'RangeError',
  'TypeError',
  'logError',
  'log',
  'warn',
  'error',
  'info',
  'debug',
  'cn',
  'querySelector',
  'getItem',
  'setItem',
  'removeItem',
  'get',
  'has',
  'startsWith',
  'endsWith',
  'includes',
  'matchMedia',
  'addEventListener',
  'removeEventListener',
  'createElement',
  'getElementById',
  'setAttribute',
  'getAttribute',
  'fetch',
  'importScripts',
]);
/** Words that are the same in every language. */
const SAME_IN_EVERY_LANGUAGE = new Set(['Pipit', 'OK']);

const hasLetters = (text: string) => /\p{L}/u.test(text);
/** A literal outside JSX that reads as a sentence or a label: capitalised and with a space, or ending in punctuation. */
const looksLikeProse = (text: string) =>
  /^[\p{Lu}][\p{Ll}’'-]*[\s,:;]/u.test(text) || /^\p{Lu}[^/_]*[.?!…]$/u.test(text);

export interface Finding {
  file: string;
  line: number;
  text: string;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

function calleeName(node: Node): string | undefined {
  const callee = node.callee as Node | undefined;
  if (!callee) return undefined;
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression' || callee.type === 'StaticMemberExpression') {
    const property = callee.property as Node;
    return property.type === 'Identifier' ? (property.name as string) : undefined;
  }
  return undefined;
}

export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'fixtures' ? [] : sourceFiles(full);
    if (full === path.join(SRC, 'i18n/check.ts')) return [];
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function parse(file: string): { program: Node; code: string } {
  const code = readFileSync(file, 'utf8');
  const { program } = parseSync(file, code, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' });
  return { program: program as unknown as Node, code };
}

const lineOf = (code: string, offset: number) => code.slice(0, offset).split('\n').length;

/** The texts of a file that a person reads and that do not go through `t`. */
export function untranslatedIn(file: string): Finding[] {
  const { program, code } = parse(file);
  const found: Finding[] = [];
  const report = (node: Node, text: string) => {
    const trimmed = text.trim().replace(/\s+/g, ' ');
    if (!hasLetters(trimmed) || SAME_IN_EVERY_LANGUAGE.has(trimmed)) return;
    found.push({ file: path.relative(SRC, file), line: lineOf(code, node.start), text: trimmed });
  };
  /** `shown`: the node's strings are put on the screen (a JSX child, a user-facing prop). */
  const visit = (node: Node, shown: boolean, parent: Node | null) => {
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'TSTypeAnnotation':
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'TSLiteralType':
        return;
      case 'JSXText':
        report(node, node.value as string);
        return;
      case 'JSXAttribute': {
        const name = node.name as Node;
        const attr = name.type === 'JSXIdentifier' ? (name.name as string) : '';
        const value = node.value as Node | null;
        if (!value) return;
        if (USER_PROP.test(attr)) {
          if (value.type === 'Literal' || value.type === 'StringLiteral') report(value, value.value as string);
          else visit(value, true, node);
        } else visit(value, false, node);
        return;
      }
      case 'JSXExpressionContainer': {
        const inChildren = parent?.type === 'JSXElement' || parent?.type === 'JSXFragment';
        visit(node.expression as Node, shown || inChildren, node);
        return;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const name = calleeName(node);
        if (name && NOT_FOR_PEOPLE.has(name)) return;
        visit(node.callee as Node, false, node);
        for (const argument of node.arguments as Node[]) visit(argument, false, node);
        return;
      }
      case 'VariableDeclarator': {
        // A variable named as a text (`const label = open ? 'Hide' : 'Show'`) holds what is shown.
        const id = node.id as Node;
        const named = id.type === 'Identifier' && USER_PROP.test(id.name as string);
        if (node.init) visit(node.init as Node, shown || named, node);
        return;
      }
      case 'BinaryExpression':
        // A comparison (`key === 'Escape'`) names a value, it shows nothing.
        if (['===', '!==', '==', '!=', 'in'].includes(node.operator as string)) return;
        break;
      case 'Property':
      case 'ObjectProperty': {
        // A key is not shown; its value is when the key names a text (`label: 'Posts'`).
        const key = node.key as Node;
        const named = key.type === 'Identifier' && USER_PROP.test(key.name as string);
        visit(node.value as Node, named, node);
        return;
      }
      case 'Literal':
      case 'StringLiteral':
        if (typeof node.value === 'string' && (shown || looksLikeProse(node.value))) report(node, node.value);
        return;
      case 'TemplateLiteral':
        for (const quasi of node.quasis as Node[]) {
          const text = (quasi.value as { cooked: string }).cooked ?? '';
          if (shown ? hasLetters(text) && /\p{L}{2,}/u.test(text) : looksLikeProse(text)) report(quasi, text);
        }
        for (const expression of node.expressions as Node[]) visit(expression, shown, node);
        return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) visit(child, shown && node.type !== 'JSXElement', node);
      } else if (isNode(value)) visit(value, shown && node.type !== 'JSXElement', node);
    }
  };
  visit(program, false, null);
  return found;
}

/** Every message id the source names: the literal first argument of each `t(…)` and `m(…)`. */
export function messageIds(files = sourceFiles()): Map<string, string> {
  const ids = new Map<string, string>();
  for (const file of files) {
    const { program } = parse(file);
    const visit = (node: Node) => {
      if (node.type === 'CallExpression' && ['t', 'm'].includes(calleeName(node) ?? '')) {
        const first = (node.arguments as Node[])[0];
        if (first && (first.type === 'Literal' || first.type === 'StringLiteral') && typeof first.value === 'string')
          ids.set(first.value, path.relative(SRC, file));
        else if (first?.type === 'TemplateLiteral' && (first.expressions as Node[]).length === 0) {
          const [quasi] = first.quasis as Node[];
          ids.set((quasi?.value as { cooked: string } | undefined)?.cooked ?? '', path.relative(SRC, file));
        }
      }
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) for (const child of value) isNode(child) && visit(child);
        else if (isNode(value)) visit(value);
      }
    };
    visit(program);
  }
  return ids;
}

export function catalogs(): Map<string, Record<string, string>> {
  return new Map(
    readdirSync(LOCALES_DIR)
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(LOCALES_DIR, name), 'utf8'))]),
  );
}

/** The placeholder names of a message (`{name}`, a plural's `{count, plural, …}`), sorted. */
export function placeholders(message: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: unknown) => {
    if (!Array.isArray(tokens)) return;
    for (const token of tokens) {
      if (!Array.isArray(token)) continue;
      names.add(token[0] as string);
      if (token[2] && typeof token[2] === 'object')
        for (const branch of Object.values(token[2] as Record<string, unknown>)) walk(branch);
    }
  };
  walk(compileMessageOrThrow(message));
  return [...names].sort();
}
