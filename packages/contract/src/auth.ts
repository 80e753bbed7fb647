import { z } from 'zod';

/** GET /api/auth/session with a valid session (NextAuth v4 DefaultSession). An empty session is {}. */
export const session = z.object({
  user: z.object({
    name: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    image: z.string().nullable().optional(),
  }),
  expires: z.string(),
});
export type Session = z.infer<typeof session>;

export const csrfAnswer = z.object({ csrfToken: z.string() });

/** Header every state-changing /api call (outside /api/auth) must carry. */
export const CSRF_HEADER = 'x-csrf-token';

export const AUTH_BASE_PATH = '/api/auth';
