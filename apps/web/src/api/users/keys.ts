/** What one page of the users table is asked for with (besides the page size). */
export interface UsersPageRequest {
  search: string;
  page: number;
}

/** Query keys of the administrators' users table: every cached page starts with `all`. */
export const userKeys = {
  all: ['users'] as const,
  page: (request: UsersPageRequest) => [...userKeys.all, 'page', request] as const,
};
