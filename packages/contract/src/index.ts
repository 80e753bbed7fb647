export * from './api.ts';
export * from './auth.ts';
export * from './common.ts';
export * from './endpoints.ts';
export * from './errors.ts';
export * from './notifications.ts';
export * from './posts.ts';
export * from './users.ts';
