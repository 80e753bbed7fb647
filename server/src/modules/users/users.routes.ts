import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';

export const usersRoutes: FastifyPluginAsyncZod<{ config: Config }> = async () => {};
