import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, DbHandle } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    dbHandle: DbHandle;
  }
}

/** Exposes the database; closes it when the app closes, unless the caller owns it (tests share one). */
export const dbPlugin = fp(async (app: FastifyInstance, { handle, owned }: { handle: DbHandle; owned: boolean }) => {
  app.decorate('db', handle.db);
  app.decorate('dbHandle', handle);
  if (owned) app.addHook('onClose', async () => handle.close());
});
