import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/client.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`pipit: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`pipit: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests, then closes the database
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Pipit is running at ${config.publicUrl} (${app.dbHandle.kind === 'pg' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`,
  );
}

main().catch((error) => {
  console.error('pipit: failed to start:', error);
  process.exit(1);
});
