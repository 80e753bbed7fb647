import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { InProcessJobs, type Jobs } from '../lib/jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background work after an answer (lib/jobs.ts). */
    jobs: Jobs;
  }
}

/** One job runner for the app; closing the app waits for the jobs already started. */
export const jobsPlugin = fp(async (app: FastifyInstance) => {
  const jobs = new InProcessJobs(app.log);
  app.decorate('jobs', jobs);
  // onClose hooks run in reverse order of registration: registered after the database plugin, this
  // one finishes the jobs before the database closes.
  app.addHook('onClose', async () => jobs.drain());
});
