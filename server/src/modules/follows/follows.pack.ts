import type { User } from '@pipit/contract';
import { toUser } from '../users/users.pack.ts';
import type { UserViewRow } from '../users/users.repository.ts';

/** Someone's public profile as the viewer sees it (the users module's packer, so a person looks the same everywhere). */
export const toUserView = (row: UserViewRow): User => toUser(row, row);
