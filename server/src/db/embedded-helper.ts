/**
 * The embedded database's helper process: creates the data directory's database and applies the
 * migrations, then exits, taking with it the memory PGlite grew doing so (db/embedded.ts). Started by
 * the server (`setUpInHelper`) with the data directory as its argument, under the server's lock; it
 * answers with one message (`HelperAnswer`) and exits 0, or 1 when the setup failed.
 */
import { assertLockedBy, describeSetupError, type HelperAnswer, setUpDataDir } from './embedded.ts';

// The server is gone (killed): stop as well. The lock file names this process until it has exited.
process.on('disconnect', () => process.exit(1));

async function run(dir: string | undefined): Promise<HelperAnswer> {
  try {
    if (!dir) throw new Error('usage: embedded-helper <data directory>');
    assertLockedBy(dir, process.ppid);
    return { ok: true, ...(await setUpDataDir(dir)) };
  } catch (error) {
    return { ok: false, message: describeSetupError(error) };
  }
}

const answer = await run(process.argv[2]);
const code = answer.ok ? 0 : 1;
if (process.send) process.send(answer, () => process.exit(code));
else {
  console.log(JSON.stringify(answer));
  process.exit(code);
}
