import {
  type ApiError,
  CSRF_HEADER,
  type EndpointAnswer,
  type EndpointBody,
  type EndpointName,
  type EndpointParams,
  type EndpointQuery,
  type HttpMethod,
  routes,
} from '@pipit/contract';
import { currentLocale, t } from '../i18n/i18n.ts';
import { serverMessage } from '../i18n/server-messages.ts';
import { getCsrfToken } from './csrf.ts';
import { takeEarly } from './early.ts';

/** An error answer of the API (the contract's `ApiError`: `{code, message, field?}`) with its HTTP status. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  /** For INVALID_INPUT: every problem the server found, one per field. */
  readonly issues: { field: string; message: string }[];

  /** `message` and the issues' are shown in the reader's language (i18n/server-messages.ts); English as sent. */
  constructor(status: number, code: string, message: string, field?: string, issues: ApiError['issues'] = []) {
    super(serverMessage(code, message));
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.issues = issues.map((issue) => ({ ...issue, message: serverMessage('', issue.message) }));
  }
}

export const isNotFound = (error: unknown) => error instanceof ApiRequestError && error.status === 404;

interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead (uploads); the browser writes its Content-Type. */
  form?: FormData;
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, string | number | null | undefined>;
}

async function readError(res: Response): Promise<ApiRequestError> {
  try {
    const body = (await res.json()) as Partial<ApiError>;
    if (typeof body.code === 'string') {
      return new ApiRequestError(
        res.status,
        body.code,
        typeof body.message === 'string' ? body.message : res.statusText,
        typeof body.field === 'string' ? body.field : undefined,
        Array.isArray(body.issues)
          ? body.issues.filter((i) => typeof i?.field === 'string' && typeof i?.message === 'string')
          : [],
      );
    }
  } catch {
    // Not JSON (a proxy's error page): fall through to a generic error.
  }
  return new ApiRequestError(
    res.status,
    res.status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN',
    res.statusText || t('Request failed'),
  );
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Calls the product API (not /api/auth). State-changing calls carry the CSRF token; a 403
 * CSRF_FAILED is retried once with a fresh token (the cookie may have been replaced).
 */
export async function apiFetch<T>(
  path: string,
  { method = 'GET', body, form, query }: RequestOptions = {},
): Promise<T> {
  const url = withQuery(path, query);
  const unsafe = method !== 'GET';
  const send = async (freshToken: boolean) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (unsafe) headers[CSRF_HEADER] = await getCsrfToken({ fresh: freshToken });
    // What the server writes to the person (the password-reset email, push titles) follows the language they
    // read, English included: a browser's own Accept-Language may name another.
    if (unsafe) headers['Accept-Language'] = currentLocale();
    return fetch(url, {
      method,
      headers,
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
  };

  // The first GET of Home's timeline was started by index.html's boot script (lib/early.ts).
  let res = await ((!unsafe && takeEarly(url)) || send(false));
  if (!res.ok) {
    let error = await readError(res);
    if (unsafe && error.code === 'CSRF_FAILED') {
      res = await send(true);
      if (!res.ok) error = await readError(res);
    }
    if (!res.ok) throw error;
  }
  if (res.status === 204 || res.headers.get('Content-Length') === '0') return undefined as T;
  return (await res.json()) as T;
}

/** What a call of `N` takes: its path params, query and body, each only where the endpoint has one. */
export type CallInput<N extends EndpointName> = ([EndpointParams<N>] extends [never]
  ? { params?: never }
  : { params: EndpointParams<N> }) &
  ([EndpointQuery<N>] extends [never] ? { query?: never } : { query?: EndpointQuery<N> }) &
  ([EndpointBody<N>] extends [never] ? { body?: never } : { body: EndpointBody<N> });

type Args<N extends EndpointName> = object extends CallInput<N> ? [input?: CallInput<N>] : [input: CallInput<N>];

/**
 * Calls an endpoint of the contract's table by name: its method and path come from the table
 * (`routes`, zod-free), and what it takes and answers are typed from its schemas.
 */
export function call<N extends EndpointName>(name: N, ...[input]: Args<N>): Promise<EndpointAnswer<N>> {
  const { method, path } = routes[name];
  const params = (input?.params ?? {}) as Record<string, string>;
  const url = path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
  return apiFetch<EndpointAnswer<N>>(url, {
    method,
    body: input?.body,
    query: input?.query as RequestOptions['query'],
  });
}
