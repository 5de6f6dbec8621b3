/** Query keys of Server Management: the person's servers and their groups. */
export const serverKeys = {
  all: ['servers'] as const,
  list: () => [...serverKeys.all, 'list'] as const,
  groups: () => [...serverKeys.all, 'groups'] as const,
  crowdsec: () => [...serverKeys.all, 'crowdsec'] as const,
};
