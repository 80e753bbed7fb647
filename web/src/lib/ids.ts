/** The contract's id rule (idSchema), checked before asking the server about a route's :id. */
const ID = /^[1-9]\d{0,17}$/;

export const isId = (value: string | undefined): value is string => value !== undefined && ID.test(value);
