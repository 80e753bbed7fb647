import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';

export const timelinesRoutes: FastifyPluginAsyncZod<{ config: Config }> = async () => {};
