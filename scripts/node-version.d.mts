/** The oldest major version Pipit runs on (package.json `engines`: ">=22"). */
export declare const MIN_NODE_MAJOR: number;
/** The major version `npm start` and `npm test` run on (package.json `optionalDependencies.node`). */
export declare const PINNED_NODE: string;
/** The one-line refusal for `version` (e.g. "20.20.2"), or null when it is new enough. */
export declare function nodeVersionProblem(version: string, execPath: string): string | null;
