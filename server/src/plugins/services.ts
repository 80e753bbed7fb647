import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Resolve } from '../lib/safe-fetch.ts';
import { createServices, type Services } from '../services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's services (src/services.ts), built once; routes only call them. */
    services: Services;
  }
}

/** Builds the services on the app's database; closing the app waits for the jobs already started. */
export const servicesPlugin = fp(
  async (app: FastifyInstance, { config, resolve }: { config: Config; resolve?: Resolve }) => {
    app.decorate(
      'services',
      await createServices(app.db, config, { log: app.log, redis: app.redis, ...(resolve ? { resolve } : {}) }),
    );
    // onClose hooks run in reverse order of registration: registered after the database plugin, this
    // one finishes the jobs before the database closes.
    app.addHook('onClose', async () => {
      await app.services.jobs.drain();
      await app.services.stop();
    });
    // Open live streams never finish by themselves: ended as the drain starts, or it would wait for them.
    app.addHook('preClose', async () => app.services.stream.closeAll());
  },
);
