import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { runPrimary } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError, EmbeddedSetupError } from './db/client.ts';

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

  if (config.workers > 1 && cluster.isPrimary) {
    runPrimary(config);
    return;
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof EmbeddedSetupError) {
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

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`pipit: ${listenProblem(code, config.host, config.port)}`);
      await app.close().catch(() => {});
      process.exit(1);
    }
    throw error;
  }
  const database = app.dbHandle.kind === 'pg' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  const listening = `${config.host}:${(app.server.address() as { port: number }).port}`;
  app.log.info(`Pipit is running at ${config.publicUrl} (listening on ${listening}, ${database})`);
  if (config.secureCookies && !config.trustProxy) {
    // Pipit never speaks TLS itself. Opened directly over http, the browser refuses the Secure
    // cookies and the https-only asset upgrades: a blank page and no way to sign in.
    app.log.warn(
      `PUBLIC_URL is ${config.publicUrl} but this server speaks plain http on ${listening}: people must reach it through a TLS-terminating proxy (README, "Production"); set TRUST_PROXY so it sees their addresses.`,
    );
  }
}

function listenProblem(code: string, host: string, port: number): string {
  if (code === 'EADDRINUSE')
    return `port ${port} on ${host} is already in use. Stop the program using it, or start Pipit on another port: PORT=3001 npm start`;
  if (code === 'EACCES')
    return `not allowed to listen on port ${port} (ports below 1024 need privileges). Set PORT to 1024 or above.`;
  return `cannot listen on ${host}: no such address on this machine. Set HOST (127.0.0.1, or 0.0.0.0 for every interface).`;
}

main().catch((error) => {
  console.error('pipit: failed to start:', error);
  process.exit(1);
});
