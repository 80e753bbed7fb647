import { ID_PATTERN as ID } from '@pipit/contract';

/** The contract's id rule (idSchema), checked before asking the server about a route's :id. */
export const isId = (value: string | undefined): value is string => value !== undefined && ID.test(value);
