/**
 * The spec's columns of the tables, header by header, as both the web tests and the Playwright flows
 * (e2e/) expect them: plain data, so that both can import it.
 */
export const ACCOUNTS_COLUMNS = ['No', 'Account Name', 'Account ID', 'Token', 'Settings'];

export const BAN_LISTS_COLUMNS = [
  'No',
  'Account Name',
  'Account ID',
  'List Name',
  'Ban List ID',
  'Kind',
  'Items',
  'Settings',
];

/** A list's items, with Guardian's Expires and Added by; the value's column is named by the list's kind. */
export const banListItemsColumns = (value: 'IP Address' | 'Hostname' = 'IP Address') => [
  'No',
  value,
  'Comment',
  'Created On',
  'Expires',
  'Added by',
  'Delete',
];
