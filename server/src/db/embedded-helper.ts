/**
 * The embedded database's helper process: creates the data directory's database and applies the
 * migrations, then exits, taking with it the memory PGlite grew doing so (db/embedded.ts). Started by
 * the server (`setUpInHelper`) with the data directory as its argument, under the server's lock; it
 * answers with one message (`HelperAnswer`) and exits 0, or 1 when the setup failed.
 *
 * `embedded-helper --template <dir>`, run by the server's build (scripts/build-server.mjs): makes the
 * template new data directories are copied from (`makeTemplate`), unless the one in <dir> already fits
 * this PGlite and these migrations; says so in one line on stderr (stdout is PGlite's chatter), exits 0,
 * or 1 with the reason.
 */
import {
  assertLockedBy,
  describeSetupError,
  type HelperAnswer,
  makeTemplate,
  setUpDataDir,
  templateProblem,
} from './embedded.ts';

async function run(dir: string | undefined): Promise<HelperAnswer> {
  try {
    if (!dir) throw new Error('usage: embedded-helper <data directory>');
    assertLockedBy(dir, process.ppid);
    return { ok: true, ...(await setUpDataDir(dir)) };
  } catch (error) {
    return { ok: false, message: describeSetupError(error) };
  }
}

if (process.argv[2] === '--template') {
  const dir = process.argv[3];
  if (!dir) {
    console.error('usage: embedded-helper --template <directory>');
    process.exit(1);
  }
  const problem = templateProblem(dir);
  if (problem === null) {
    console.error(`pipit: the embedded database's template in ${dir} is up to date`);
  } else {
    try {
      const started = performance.now();
      await makeTemplate(dir);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.error(`pipit: made the embedded database's template in ${dir} (${seconds} s)`);
    } catch (error) {
      console.error(`pipit: could not make the embedded database's template: ${describeSetupError(error)}`);
      process.exit(1);
    }
  }
  process.exit(0);
} else {
  // The server is gone (killed): stop as well. The lock file names this process until it has exited.
  process.on('disconnect', () => process.exit(1));
  const answer = await run(process.argv[2]);
  const code = answer.ok ? 0 : 1;
  if (process.send) process.send(answer, () => process.exit(code));
  else {
    console.log(JSON.stringify(answer));
    process.exit(code);
  }
}
