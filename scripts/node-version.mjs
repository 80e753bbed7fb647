// The Node.js version Pipit runs on, checked before anything else loads: `npm start` (scripts/start.mjs
// imports this module first) and the compiled server run directly (`node server/dist/main.js`, whose
// entry imports this before it loads the server's modules). On an older Node it prints one line naming
// the version found and the one needed, then exits 1; otherwise it does nothing.
//
// Every npm script runs on the Node 24 pinned in package.json (the `node` package: `npm install` puts
// its binary in node_modules/.bin, which npm puts first on PATH), so this is reached on an old Node
// only when Pipit is run by hand (`node scripts/start.mjs`, `node server/dist/main.js`) or when that
// package was not installed (an optional dependency: npm skips it on a platform the registry has no
// binary of that version for, and the scripts then run on the machine's Node). Plain JavaScript with no imports: it must parse and run on old Nodes.

/** The oldest major version Pipit runs on (package.json `engines`: ">=22"). */
export const MIN_NODE_MAJOR = 22;
/** The version `npm start` and `npm test` run on (package.json `optionalDependencies.node`). */
export const PINNED_NODE = '24';

/** The one-line refusal for `version` (e.g. "20.20.2"), or null when it is new enough. */
export function nodeVersionProblem(version, execPath) {
  const major = Number(String(version).split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return null;
  return (
    `pipit: Node.js ${MIN_NODE_MAJOR} or newer is needed (${PINNED_NODE} recommended), but this is Node.js ` +
    `${version} (${execPath}). Run it through npm (\`npm start\`), which uses the Node ${PINNED_NODE} that ` +
    `\`npm install\` puts in node_modules/.bin, or install Node.js ${MIN_NODE_MAJOR}+.`
  );
}

const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem) {
  console.error(problem);
  process.exit(1);
}
