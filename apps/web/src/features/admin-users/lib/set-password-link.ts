/**
 * The page a set-password link opens. The server answers only the token; the web's set-password page
 * reads it from the fragment (`/set-password#<token>`), which browsers never send, so it stays out of
 * server and proxy logs.
 */
export function setPasswordUrl(token: string, origin = window.location.origin): string {
  return `${origin}/set-password#${encodeURIComponent(token)}`;
}
