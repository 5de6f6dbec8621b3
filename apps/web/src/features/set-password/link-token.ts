/**
 * The token of a set-password link, `/set-password#<token>`: in the fragment, which browsers never send,
 * so it stays out of server and proxy logs. `?token=` is read too, for a link written that way by hand.
 */
export function linkTokenOf(location: { hash: string; search: string }): string {
  const hash = location.hash.replace(/^#/, '');
  let fromHash: string;
  try {
    fromHash = decodeURIComponent(hash).trim();
  } catch {
    fromHash = hash.trim();
  }
  return fromHash || (new URLSearchParams(location.search).get('token') ?? '').trim();
}
