/** Cloudflare's names of actions and sources, in the person's words. */

const ACTIONS: Record<string, string> = {
  block: 'Block',
  challenge: 'Challenge',
  managed_challenge: 'Managed challenge',
  jschallenge: 'JS challenge',
  js_challenge: 'JS challenge',
  challenge_solved: 'Challenge solved',
  challenge_failed: 'Challenge failed',
  managed_challenge_skipped: 'Managed challenge skipped',
  log: 'Log',
  skip: 'Skip',
  allow: 'Allow',
  bypass: 'Bypass',
  connection_close: 'Connection close',
};

const SOURCES: Record<string, string> = {
  firewallCustom: 'Custom rules',
  firewallManaged: 'Managed rules',
  firewallrules: 'Firewall rules (legacy)',
  ratelimit: 'Rate limiting',
  securitylevel: 'Security level',
  ip: 'IP Access rules',
  iprange: 'IP Access rules (range)',
  asn: 'IP Access rules (ASN)',
  country: 'IP Access rules (country)',
  waf: 'Managed rules (legacy)',
  bic: 'Browser integrity check',
  hot: 'Hotlink protection',
  uablock: 'User agent blocking',
  zonelockdown: 'Zone lockdown',
  validation: 'Validation',
  l7ddos: 'HTTP DDoS protection',
  botFight: 'Bot fight mode',
  botManagement: 'Bot management',
  apiShield: 'API Shield',
  dlp: 'Data loss prevention',
};

const humanize = (name: string) => {
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const actionWords = (action: string) => ACTIONS[action] ?? humanize(action);
export const sourceWords = (source: string) => SOURCES[source] ?? humanize(source);
