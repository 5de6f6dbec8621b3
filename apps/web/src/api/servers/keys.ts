/** Query keys of Server Management: the person's servers, their groups and the bans waiting for review. */
export const serverKeys = {
  all: ['servers'] as const,
  list: () => [...serverKeys.all, 'list'] as const,
  hourly: (serverIds: readonly number[]) => [...serverKeys.all, 'hourly', serverIds.join(',')] as const,
  groups: () => [...serverKeys.all, 'groups'] as const,
  reviews: () => [...serverKeys.all, 'reviews'] as const,
  crowdsec: () => [...serverKeys.all, 'crowdsec'] as const,
};
