import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { minify, type Plugin, parseSync, type Rolldown, transformWithOxc } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The contract builds its zod schemas at module level. The web app uses its types, paths and
 * constants, not the schemas, so each exported `const x = <call>` is wrapped in a pure IIFE: the
 * bundler then drops the unused ones, and zod with them (~30 KB gzip).
 */
function pureContractSchemas(): Plugin {
  return {
    name: 'pipit:pure-contract-schemas',
    transform(code, id) {
      if (!id.includes('/packages/contract/src/')) return null;
      const { program } = parseSync(id, code, { lang: 'ts' });
      let out = '';
      let last = 0;
      for (const statement of program.body) {
        if (statement.type !== 'ExportNamedDeclaration') continue;
        const declaration = statement.declaration;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations) {
          if (init?.type !== 'CallExpression') continue;
          out += `${code.slice(last, init.start)}/* @__PURE__ */ (() => ${code.slice(init.start, init.end)})()`;
          last = init.end;
        }
      }
      return last === 0 ? null : { code: out + code.slice(last), map: null };
    },
  };
}

/**
 * Writes a .br and a .gz beside every text file of the build, once, at build time: the server sends
 * them as they are (@fastify/static preCompressed), so compression costs no CPU per request.
 */
function precompress(): Plugin {
  let outDir = '';
  let write = true;
  const compressible = /\.(js|css|html|svg|json|txt)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  return {
    name: 'pipit:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      write = config.build.write;
    },
    closeBundle() {
      // An in-memory build (the first-visit budget test) wrote nothing to compress.
      if (!write) return;
      for (const file of walk(outDir)) {
        if (!compressible.test(file)) continue;
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * index.html's one inline script (src/boot.ts: the theme before the first paint, Home's first requests
 * and code started early), types stripped and minified, at the end of <head> after the app's script and
 * module preloads (so the Home page's chunks it preloads queue behind them) and before the stylesheet (an
 * inline script after a stylesheet waits for it). The build fills in the Home page's chunks that index.html
 * does not already preload; the server allows the script by its hash (server/src/plugins/security.ts).
 */
function bootScript(): Plugin {
  const source = path.join(import.meta.dirname, 'src/boot.ts');
  const home = path.join(import.meta.dirname, 'src/app/routes/home.tsx');
  let base = '/';
  const closure = (bundle: Rolldown.OutputBundle, fileName: string, into = new Set<string>()) => {
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk' || into.has(fileName)) return into;
    into.add(fileName);
    for (const imported of chunk.imports) closure(bundle, imported, into);
    return into;
  };
  return {
    name: 'pipit:boot-script',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, { bundle, chunk }) {
        let homeChunks: string[] = [];
        if (bundle && chunk) {
          const page = Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.includes(home));
          if (!page) throw new Error('no chunk for the Home page');
          const preloaded = closure(bundle, chunk.fileName);
          homeChunks = [...closure(bundle, page.fileName)].filter((f) => !preloaded.has(f)).map((f) => base + f);
        }
        const { code } = await transformWithOxc(readFileSync(source, 'utf8'), source, { lang: 'ts' });
        const filled = code.replace('__HOME_CHUNKS__', JSON.stringify(homeChunks));
        const { code: minified } = await minify('boot.js', filled, { compress: true, mangle: true });
        const script = `<script>${minified.trim()}</script>\n`;
        const at = /<link [^>]*rel="stylesheet"/.exec(html)?.index ?? html.indexOf('</head>');
        return `${html.slice(0, at)}${script}    ${html.slice(at)}`;
      },
    },
  };
}

/**
 * The message catalogs (src/i18n/locales/<locale>.json: English text → translation, ICU MessageFormat),
 * compiled for Lingui's runtime at build time, so the page carries no message parser: `import messages
 * from 'virtual:pipit-catalog/es'`. The ids are the English texts themselves; English's own catalog holds
 * only the ids with a placeholder or a plural (compiled from the ids), a plain text is its own translation.
 * A message that does not parse fails the build.
 */
function messageCatalogs(): Plugin {
  const PREFIX = 'virtual:pipit-catalog/';
  const dir = path.join(import.meta.dirname, 'src/i18n/locales');
  const read = (file: string): Record<string, string> => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  return {
    name: 'pipit:message-catalogs',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const locale = id.slice(PREFIX.length + 1);
      const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
      for (const file of files) this.addWatchFile(path.join(dir, file));
      const messages: Record<string, string> =
        locale === 'en'
          ? Object.fromEntries(
              files
                .flatMap((file) => Object.keys(read(file)))
                .filter((text) => text.includes('{'))
                .map((text) => [text, text]),
            )
          : read(`${locale}.json`);
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, text]) => {
          try {
            return [key, compileMessageOrThrow(text)];
          } catch (error) {
            throw new Error(`${locale}.json: the message for "${key}" does not parse: ${(error as Error).message}`);
          }
        }),
      );
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}

const api = 'http://localhost:3000';
const BUDGET_TEST = 'src/**/*.budget.test.ts';

export default defineConfig(({ command }) => {
  // A build is always a production build, even when started from a test run (NODE_ENV=test
  // would otherwise give development React and JSX).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    plugins: [pureContractSchemas(), messageCatalogs(), react(), tailwindcss(), bootScript(), precompress()],
    server: {
      // OAuth's token and revoke endpoints and its metadata are the server's; /oauth/authorize is the web's page.
      proxy: {
        '/api': api,
        '/media': api,
        '/healthz': api,
        '/oauth/token': api,
        '/oauth/revoke': api,
        '/.well-known': api,
      },
    },
    build: {
      outDir: 'dist',
      assetsDir: 'assets',
      emptyOutDir: true,
      // Every browser the app supports has modulepreload; the polyfill would only add bytes.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        output: {
          codeSplitting: {
            // Two files for a first visit to Home instead of 23: everything index.html loads in one chunk,
            // the Home page and what it imports in another (other pages import what they share with it
            // from there, ~2 kB of Home's own code with it; most visits start at Home). Each request costs
            // a round trip on a phone, and small files compress worse: 149.8 -> 141.7 kB gzip.
            groups: [
              { name: 'app', tags: ['$initial'] },
              { name: 'home', test: /src[\\/]app[\\/]routes[\\/]home\.tsx$/ },
            ],
          },
        },
      },
    },
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'components',
            environment: 'jsdom',
            setupFiles: ['./src/test/setup.ts'],
            include: ['src/**/*.test.{ts,tsx}'],
            exclude: [...configDefaults.exclude, BUDGET_TEST],
            restoreMocks: true,
          },
        },
        // The first visit's budget builds the app for production in memory (Node, no DOM).
        { extends: true, test: { name: 'budget', environment: 'node', include: [BUDGET_TEST] } },
      ],
    },
  };
});
